import type { Locale } from '@meridian/contracts/locale';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createInstance, type Resource } from 'i18next';
import { Suspense, type ComponentType } from 'react';
import { renderToString } from 'react-dom/server';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { createStaticHandler, createStaticRouter, Outlet, StaticRouterProvider } from 'react-router';
import { AppFrame } from '../app/layout/app-frame.tsx';
import { PageFallback } from '../app/layout/boot-fallback.tsx';
import { HomeRoute } from '../app/pages/home-route.tsx';
import { FiscardPage } from '../features/cards/pages/fiscard-page.tsx';
import { ExchangePage } from '../features/exchange/pages/exchange-page.tsx';
import { EarnPage } from '../features/funds/pages/earn-page.tsx';
import { LoanPage } from '../features/loans/pages/loan-page.tsx';
import { pathTo } from '../config/paths.ts';
import type { RouteHandle } from '../config/route-handle.ts';
import { useRouteMeta } from '../hooks/use-route-meta.ts';
import { loadLocaleNamespace, namespacesForPath } from '../lib/i18n.ts';
import { prerenderIdPrefix } from '../lib/prerendered-page.ts';

/**
 * Build-time render of the public pages (header and page, as a guest, before banners arrive and
 * before any Ant Design island) in one language. `scripts/postbuild.mjs` puts both languages of
 * home into dist/index.html and of each other page into its own HTML file (served for its path by
 * the server); `public/boot.js` shows the right copy, and the app hydrates it (`main.tsx`). This
 * layout must render what `RootLayout` renders for a guest on its first render (the same elements
 * and Suspense boundary, nothing after the page), or hydration fails and the app re-renders the page.
 * See docs/performance.md "Lighthouse: prerendered public pages" and "hydrating the prerendered pages".
 */
function PrerenderLayout() {
  const { isHeaderFixed } = useRouteMeta();
  return (
    <AppFrame isHeaderFixed={isHeaderFixed}>
      <Suspense fallback={<PageFallback />}>
        <Outlet />
      </Suspense>
    </AppFrame>
  );
}

/**
 * The prerendered pages, by path, with their route ids and whether their route's handle fixes the
 * header (`fixedHeader` in `app/routes.tsx`; `prerender-entry.test.ts` checks they agree): each
 * renders with the namespaces `namespacesForPath` gives its path (the ones the live app waits for
 * before its first render).
 */
const PAGES: Record<string, { id: string; Component: ComponentType; fixedHeader: boolean }> = {
  '/': { id: 'Home', Component: HomeRoute, fixedHeader: true },
  [pathTo('Loan')]: { id: 'Loan', Component: LoanPage, fixedHeader: false },
  [pathTo('Earn')]: { id: 'Earn', Component: EarnPage, fixedHeader: true },
  [pathTo('Exchange')]: { id: 'Exchange', Component: ExchangePage, fixedHeader: false },
  [pathTo('Fiscard')]: { id: 'Fiscard', Component: FiscardPage, fixedHeader: true },
};

/** The route id and header of each prerendered path, for tests. */
export const PRERENDERED_ROUTES: Readonly<Record<string, { id: string; fixedHeader: boolean }>> = Object.fromEntries(
  Object.entries(PAGES).map(([path, { id, fixedHeader }]) => [path, { id, fixedHeader }]),
);

/** The paths `renderPage` can render, home (`/`) first. */
export const PRERENDERED_PATHS: readonly string[] = Object.keys(PAGES);

/**
 * Renders the page at `path` (one of `PRERENDERED_PATHS`) in `locale` with the texts of
 * `namespacesForPath(path)`.
 * @throws when `path` is not prerendered, or when any text of the page has no translation (a key of
 *   another namespace, or a key missing from its file): the static HTML would show the raw key until
 *   the app replaced it, so the build fails instead.
 */
export async function renderPage(locale: Locale, path: string): Promise<string> {
  const page = PAGES[path];
  if (!page) throw new Error(`${path} is not a prerendered page`);
  const namespaces = namespacesForPath(path);
  const bundles = await Promise.all(
    namespaces.map(async (namespace) => [namespace, await loadLocaleNamespace(locale, namespace)] as const),
  );
  const resources: Resource = { [locale]: Object.fromEntries(bundles) };
  const missing: string[] = [];
  const i18n = createInstance();
  await i18n.use(initReactI18next).init({
    lng: locale,
    fallbackLng: false,
    resources,
    ns: [...namespaces],
    defaultNS: 'common',
    interpolation: { escapeValue: false },
    react: { useSuspense: false },
    saveMissing: true,
    // A key asked for with a `defaultValue` is optional (e.g. a section's subtitle).
    missingKeyHandler: (_languages, namespace, key, _fallback, _update, options) => {
      if ((options as { defaultValue?: unknown } | undefined)?.defaultValue === undefined)
        missing.push(`${namespace}:${key}`);
    },
  });

  const handle: RouteHandle = page.fixedHeader ? { fixedHeader: true } : {};
  const route =
    path === '/'
      ? { id: page.id, index: true, Component: page.Component, handle }
      : { id: page.id, path, Component: page.Component, handle };
  const handler = createStaticHandler([{ id: 'Root', Component: PrerenderLayout, children: [route] }]);
  const context = await handler.query(new Request(`http://meridian.local${path}`));
  if (context instanceof Response) throw new Error(`The route of ${path} redirected during prerender`);
  const router = createStaticRouter(handler.dataRoutes, context);

  const markup = renderToString(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={new QueryClient()}>
        <StaticRouterProvider router={router} context={context} hydrate={false} />
      </QueryClientProvider>
    </I18nextProvider>,
    { identifierPrefix: prerenderIdPrefix(locale) },
  );
  if (missing.length > 0)
    throw new Error(`The ${locale} prerender of ${path} has untranslated keys: ${[...new Set(missing)].join(', ')}`);
  return markup;
}
