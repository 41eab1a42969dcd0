import { useEffect, useState } from 'react';

/** `value`, once it has stopped changing for `delayMs` (typing in the calculator asks the server once per pause). */
export function useDebounced<T>(value: T, delayMs: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}
