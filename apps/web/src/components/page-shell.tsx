import { createContext, Suspense, use, useContext, type ComponentType, type ReactNode } from 'react';
import { islandLoader, type LoadedIsland } from './antd-island.tsx';
import { PageFrame } from './page-frame.tsx';
import './page-shell.css';

/**
 * A signed-in page's module, as routes.tsx imports it (`() => import('…').then((m) => ({ Component: m.X }))`,
 * the shape of a route's `lazy`).
 */
export type PageModuleLoad = () => Promise<{ Component: ComponentType }>;

/** A page of the app shell: its loader (memoised; call it to start the downloads early). */
export interface ShellPage {
  load: () => Promise<LoadedIsland<ComponentType>>;
}

/** Builds the `ShellPage` of a page module (one per route; the loader fetches the module once). */
export function shellPage(load: PageModuleLoad): ShellPage {
  return { load: islandLoader(() => load().then((module) => module.Component)) };
}

/**
 * Whether the page is drawn inside the account layout (side menu; no page container) or on its
 * own (`container section`). The account layout provides `true`.
 */
export const InAccountLayout = createContext(false);

/**
 * The first paint of a signed-in page: the page's frame — breadcrumbs,
 * its title (the route's name from `routes.*`, both languages) and the tabs of its section — and an
 * empty block of the page's usual height (`aria-busy`), in plain React and CSS. The page's module,
 * Ant Design's configuration and the language's Ant Design texts load in parallel meanwhile
 * (`islandLoader`), and the page then replaces the frame with its own, inside `AntdConfig`. Pages
 * that draw their frame the same way (`PageFrame`, in `container section` outside the account
 * layout) keep their title where the shell drew it.
 */
export function PageShell({ page }: { page: ShellPage }) {
  const isInAccount = useContext(InAccountLayout);
  const frame = (
    <PageFrame>
      <div className="antd-island-placeholder page-shell__placeholder" aria-busy="true" data-testid="page-shell" />
    </PageFrame>
  );
  return (
    <Suspense fallback={isInAccount ? frame : <div className="container section">{frame}</div>}>
      <LoadedPage page={page} />
    </Suspense>
  );
}

/** The page once its module and Ant Design are there; suspends until then. */
function LoadedPage({ page }: { page: ShellPage }): ReactNode {
  const { AntdConfig, Component } = use(page.load());
  return (
    <AntdConfig>
      <Component />
    </AntdConfig>
  );
}
