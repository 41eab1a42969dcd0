import { useEffect } from 'react';
import { useLocation } from 'react-router';

/**
 * Writes the path the app has rendered to `<html data-path>` after each navigation commits. The URL
 * changes before a lazily loaded route renders, so this is what a test that navigates inside the
 * app (the accessibility spec, e2e/a11y.spec.ts) waits for. Called by the customer shell and the
 * back office's root.
 */
export function useRenderedPath(): void {
  const { pathname } = useLocation();
  useEffect(() => {
    document.documentElement.dataset.path = pathname;
  }, [pathname]);
}
