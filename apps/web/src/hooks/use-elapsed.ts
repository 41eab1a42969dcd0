import { startTransition, useEffect, useState } from 'react';

/**
 * False until `delayMs` after the first render, then true for good. The change is a transition, so
 * what it brings in (the footer, `RootLayout`) renders in slices and not in one task of the main
 * thread (Lighthouse's total blocking time: docs/performance.md).
 */
export function useElapsed(delayMs: number): boolean {
  const [hasElapsed, setElapsed] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => startTransition(() => setElapsed(true)), delayMs);
    return () => clearTimeout(timer);
  }, [delayMs]);
  return hasElapsed;
}
