import type { ReactNode } from 'react';
import { Header } from './header/header.tsx';

/**
 * The page frame shared by the live app (`RootLayout`) and the build-time prerender of the home
 * page, so both lay out identically and swapping one for the other moves nothing on screen.
 */
export function AppFrame({
  isHeaderFixed,
  children,
  after,
}: {
  isHeaderFixed: boolean;
  children: ReactNode;
  after?: ReactNode;
}) {
  return (
    <div className="app-shell">
      <Header isFixed={isHeaderFixed} />
      <main id="main" className={`app-main${isHeaderFixed ? ' app-main--under-fixed-header' : ''}`}>
        {children}
      </main>
      {after}
    </div>
  );
}
