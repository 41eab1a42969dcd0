import { useEffect, useState } from 'react';

/** False until `delayMs` after the first render, then true for good. */
export function useElapsed(delayMs: number): boolean {
  const [hasElapsed, setElapsed] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setElapsed(true), delayMs);
    return () => clearTimeout(timer);
  }, [delayMs]);
  return hasElapsed;
}
