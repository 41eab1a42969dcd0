import { useEffect } from 'react';
import { useBlocker } from 'react-router';
import { closeAllModals, isAnyModalOpen } from '../../stores/modal-store.ts';

/**
 * The router guard: while any global modal is open, a navigation (a link, a programmatic
 * navigate, the browser's back or forward button) is cancelled and the modals close instead, so
 * "back" on a phone dismisses the dialog rather than leaving the page under it.
 *
 * Navigation to the Security route is not blocked: Security is part of the product, not another
 * site.
 */
export function useModalRouteGuard(): void {
  const blocker = useBlocker(({ currentLocation, nextLocation }) => {
    const isSameLocation =
      currentLocation.pathname === nextLocation.pathname &&
      currentLocation.search === nextLocation.search &&
      currentLocation.hash === nextLocation.hash;
    return !isSameLocation && isAnyModalOpen();
  });

  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    closeAllModals();
    blocker.reset();
  }, [blocker]);
}
