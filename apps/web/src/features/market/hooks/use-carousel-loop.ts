import { useCallback, useEffect, useState } from 'react';

/**
 * The position of a looping carousel of `count` slides rendered in several copies: `position`
 * counts slides from the first copy's start; moving past the first copy jumps back unseen (no
 * animation) to the same slide in it, and moving before the start jumps unseen to the next copy
 * first, so the loop never shows a rewind. Autoplay steps every `autoplayMs` unless `isPaused`.
 */
export function useCarouselLoop(count: number, autoplayMs: number, isPaused: boolean) {
  const [position, setPosition] = useState(0);
  const [isAnimated, setAnimated] = useState(true);

  const next = useCallback(() => {
    setAnimated(true);
    setPosition((current) => current + 1);
  }, []);

  const previous = () => {
    if (position > 0) {
      setAnimated(true);
      setPosition(position - 1);
      return;
    }
    // At the start: jump unseen to the same slide in the next copy, then animate one step back.
    setAnimated(false);
    setPosition(count);
    requestAnimationFrame(() =>
      requestAnimationFrame(() => {
        setAnimated(true);
        setPosition(count - 1);
      }),
    );
  };

  const goTo = (index: number) => {
    setAnimated(true);
    setPosition(index);
  };

  const onTransitionEnd = () => {
    if (position < count) return;
    setAnimated(false);
    setPosition(position - count);
  };

  useEffect(() => {
    if (isAnimated) return;
    const handle = requestAnimationFrame(() => requestAnimationFrame(() => setAnimated(true)));
    return () => cancelAnimationFrame(handle);
  }, [isAnimated]);

  useEffect(() => {
    if (count < 2 || isPaused) return;
    const timer = setInterval(next, autoplayMs);
    return () => clearInterval(timer);
  }, [count, isPaused, next, autoplayMs]);

  return { position, isAnimated, next, previous, goTo, onTransitionEnd };
}
