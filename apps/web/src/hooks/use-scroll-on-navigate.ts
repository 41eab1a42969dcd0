import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { usePrefersReducedMotion } from '../lib/reduced-motion.ts';

/** Space left above an element scrolled to by hash. */
export const HASH_SCROLL_OFFSET_PX = 40;
/** A lazily rendered target may appear a little after navigation; look for it this many frames. */
const HASH_TARGET_FRAMES_MAX = 60;
/**
 * Content above the target may still arrive after the scroll (a product list, rates, images) and
 * push the target down: for this long the page follows it, unless the person scrolls first.
 */
const HASH_SETTLE_MS = 2_000;
/** What a person does to scroll or move on: from then on the page is theirs. */
const USER_SCROLL_EVENTS = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;

/**
 * On each navigation: scroll smoothly to the element named by the hash, 40 px above it, or to the
 * top of the page when there is no hash; while content above it is still arriving
 * (`HASH_SETTLE_MS`), the page follows the target, so the link lands where it points. With the
 * system's reduced-motion setting the jump is immediate.
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
    let stopFollowing = () => {};
    const scrollTo = (target: HTMLElement) => {
      const top = target.getBoundingClientRect().top + window.scrollY - HASH_SCROLL_OFFSET_PX;
      window.scrollTo({ top, behavior });
    };
    /** Scrolls to the target again whenever the page's height changes, until settled or the person scrolls. */
    const follow = (target: HTMLElement) => {
      if (typeof ResizeObserver === 'undefined') return;
      const observer = new ResizeObserver(() => scrollTo(target));
      observer.observe(document.body);
      const timer = window.setTimeout(() => stopFollowing(), HASH_SETTLE_MS);
      stopFollowing = () => {
        observer.disconnect();
        window.clearTimeout(timer);
        for (const type of USER_SCROLL_EVENTS) window.removeEventListener(type, stopFollowing);
      };
      for (const type of USER_SCROLL_EVENTS) window.addEventListener(type, stopFollowing, { passive: true });
    };
    const seek = () => {
      const target = document.getElementById(id);
      if (target) {
        scrollTo(target);
        follow(target);
        return;
      }
      frame += 1;
      if (frame < HASH_TARGET_FRAMES_MAX) handle = requestAnimationFrame(seek);
    };
    seek();
    return () => {
      cancelAnimationFrame(handle);
      stopFollowing();
    };
  }, [pathname, hash, behavior]);
}
