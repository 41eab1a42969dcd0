import { useEffect, useState } from 'react';

/** The current time in ms, re-read every `intervalMs` while `isActive` (a countdown's clock). */
export function useNow(intervalMs: number, isActive: boolean): number {
  const [nowMs, setNowMs] = useState(() => Date.now());
  useEffect(() => {
    if (!isActive) return;
    setNowMs(Date.now());
    const timer = setInterval(() => setNowMs(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs, isActive]);
  return nowMs;
}
