import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { PageFallback } from './boot-fallback.tsx';

/**
 * Layout route of the signed-in and other application pages (the `AntdScope` route of routes.tsx).
 * It loads nothing and blocks no paint: each page below is an app-shell page
 * (`components/page-shell.tsx`) that paints its frame at once and brings Ant Design's configuration
 * with its own module, after the first paint.
 */
export function ShellScope() {
  return (
    <Suspense fallback={<PageFallback />}>
      <Outlet />
    </Suspense>
  );
}
