import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { usePrefersReducedMotion } from '../lib/reduced-motion.ts';

/** Space left above an element scrolled to by hash (spec §2). */
export const HASH_SCROLL_OFFSET_PX = 40;
/** A lazily rendered target may appear a little after navigation; look for it this many frames. */
const HASH_TARGET_FRAMES_MAX = 60;

/**
 * On each navigation: scroll smoothly to the element named by the hash, 40 px above it, or to the
 * top of the page when there is no hash (spec §2). With the system's reduced-motion setting the
 * jump is immediate.
 */
export function useScrollOnNavigate(): void {
  const { pathname, hash } = useLocation();
  const behavior: ScrollBehavior = usePrefersReducedMotion() ? 'auto' : 'smooth';

  useEffect(() => {
    if (!hash) {
      window.scrollTo({ top: 0, left: 0 });
      return;
    }
    const id = decodeURIComponent(hash.slice(1));
    let frame = 0;
    let handle = 0;
    const seek = () => {
      const target = document.getElementById(id);
      if (target) {
        const top = target.getBoundingClientRect().top + window.scrollY - HASH_SCROLL_OFFSET_PX;
        window.scrollTo({ top, behavior });
        return;
      }
      frame += 1;
      if (frame < HASH_TARGET_FRAMES_MAX) handle = requestAnimationFrame(seek);
    };
    seek();
    return () => cancelAnimationFrame(handle);
  }, [pathname, hash, behavior]);
}
