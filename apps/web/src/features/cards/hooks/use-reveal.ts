import { CARD_REVEAL_TTL_MS, type CardReveal } from '@meridian/contracts/cards';
import { useEffect, useState } from 'react';
import { useNow } from './use-now.ts';

/** The card details being shown (`details`, null when hidden) and the seconds before they hide. */
export interface Reveal {
  details: CardReveal | null;
  secondsLeft: number;
  show: (details: CardReveal) => void;
  hide: () => void;
}

/**
 * The revealed details while they may show: hidden at the server's `hideAt` or after 60 s from the
 * answer, whichever is first (the reveal closes after 60 s).
 */
export function useReveal(): Reveal {
  const [reveal, setReveal] = useState<{ details: CardReveal; hideAtMs: number } | null>(null);
  const nowMs = useNow(500, reveal !== null);
  const left = reveal ? Math.max(0, Math.ceil((reveal.hideAtMs - nowMs) / 1000)) : 0;
  useEffect(() => {
    if (reveal && left === 0) setReveal(null);
  }, [reveal, left]);
  const show = (details: CardReveal) =>
    setReveal({ details, hideAtMs: Math.min(Date.parse(details.hideAt), Date.now() + CARD_REVEAL_TTL_MS) });
  return { details: reveal?.details ?? null, secondsLeft: left, show, hide: () => setReveal(null) };
}
