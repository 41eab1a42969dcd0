import { lazy, Suspense, useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { IdentityMount } from '../../features/identity/components/identity-mount.tsx';
import { NoticesMount } from '../../features/notices/components/notices-mount.tsx';
import { useElapsed } from '../../hooks/use-elapsed.ts';
import { useRenderedPath } from '../../hooks/use-rendered-path.ts';
import { useRouteMeta } from '../../hooks/use-route-meta.ts';
import { useScrollOnNavigate } from '../../hooks/use-scroll-on-navigate.ts';
import { setNavDrawerOpen } from '../../stores/nav-drawer-store.ts';
import { useOverlayHostRequested } from '../../stores/overlay-host-store.ts';
import { useModalRouteGuard } from '../guards/use-modal-route-guard.ts';
import { PageFallback } from './boot-fallback.tsx';
import { Footer } from './footer.tsx';
import { AppFrame } from './app-frame.tsx';

/** The footer appears this long after the app starts. */
export const FOOTER_DELAY_MS = 2500;

const OverlayHost = lazy(async () => {
  const [host] = await Promise.all([
    import('../antd/overlay-host.tsx'),
    import('../antd/antd-config.tsx').then((config) => config.prepareAntd()),
  ]);
  return { default: host.OverlayHost };
});

/** Ant Design's configuration around the message centre's toasts, loaded with the first toast. */
const AntdToastScope = lazy(async () => {
  const config = await import('../antd/antd-config.tsx');
  await config.prepareAntd();
  return { default: config.AntdConfig };
});

/**
 * The page, one element for every render of the layout: the prerendered page is hydrated inside this
 * Suspense boundary after the rest (main.tsx), in slices. A new element on each render (the
 * layout re-renders as the session, the footer's delay and the router's state settle) would hand
 * the boundary new props while it is still dehydrated, which makes React hydrate the whole page at
 * once, synchronously, in one task (docs/performance.md, "Lighthouse: hydrating the prerendered pages").
 */
const PAGE = (
  <Suspense fallback={<PageFallback />}>
    <Outlet />
  </Suspense>
);

/** The shell around every page: header, page, delayed footer, and the global overlays on demand. */
export function RootLayout() {
  const { isHeaderFixed, isFooterHidden } = useRouteMeta();
  const location = useLocation();
  const isFooterDue = useElapsed(FOOTER_DELAY_MS);
  const isOverlayHostRequested = useOverlayHostRequested();
  useModalRouteGuard();
  useScrollOnNavigate();
  useRenderedPath();

  useEffect(() => {
    setNavDrawerOpen(false);
  }, [location.key]);

  return (
    <AppFrame
      isHeaderFixed={isHeaderFixed}
      after={
        <>
          {isFooterDue && !isFooterHidden && <Footer />}
          <NoticesMount toastScope={AntdToastScope} />
          <IdentityMount toastScope={AntdToastScope} />
          {isOverlayHostRequested && (
            <Suspense fallback={null}>
              <OverlayHost />
            </Suspense>
          )}
        </>
      }
    >
      {PAGE}
    </AppFrame>
  );
}
