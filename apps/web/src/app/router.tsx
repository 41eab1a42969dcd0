import { createBrowserRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { routes } from './routes.tsx';

/** The app's router (React Router's data router over `routes`). */
export type AppRouterInstance = ReturnType<typeof createBrowserRouter>;

/**
 * Creates the router, which starts loading the first route's code at once. Call it only after
 * start-up removed `?locale=` and `?_lt=` from the address (`bootLocale`): the router reads the
 * address when created.
 */
export function createAppRouter(): AppRouterInstance {
  return createBrowserRouter(routes);
}

/**
 * Resolves once the router has the first route's code and data (`state.initialized`), so a first
 * render shows the page itself and not the routes' `HydrateFallback`.
 */
export function routerInitialized(router: AppRouterInstance): Promise<void> {
  if (router.state.initialized) return Promise.resolve();
  return new Promise((resolve) => {
    const unsubscribe = router.subscribe((state) => {
      if (!state.initialized) return;
      unsubscribe();
      resolve();
    });
  });
}

/** Renders `router` (made by `createAppRouter`). */
export function AppRouter({ router }: { router: AppRouterInstance }) {
  return <RouterProvider router={router} />;
}
