import { useSyncExternalStore } from 'react';

/** The media query of the operating system's "reduce motion" setting (Media Queries Level 5). */
const REDUCED_MOTION_QUERY = '(prefers-reduced-motion: reduce)';

function reducedMotionQuery(): MediaQueryList | null {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function'
    ? window.matchMedia(REDUCED_MOTION_QUERY)
    : null;
}

function subscribe(listener: () => void): () => void {
  const query = reducedMotionQuery();
  query?.addEventListener('change', listener);
  return () => query?.removeEventListener('change', listener);
}

/**
 * True while the user asks the system for less motion (`prefers-reduced-motion: reduce`), updated
 * when the setting changes; false where the browser cannot tell. The app then turns Ant Design's
 * animations off and stops the home carousel's autoplay (WCAG 2.2 success criteria 2.2.2, 2.3.3).
 */
export function usePrefersReducedMotion(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => reducedMotionQuery()?.matches ?? false,
    () => false,
  );
}
