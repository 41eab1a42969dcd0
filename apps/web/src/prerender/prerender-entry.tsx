import type { Locale } from '@meridian/contracts/locale';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createInstance, type Resource } from 'i18next';
import type { ComponentType } from 'react';
import { renderToString } from 'react-dom/server';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { createStaticHandler, createStaticRouter, Outlet, StaticRouterProvider } from 'react-router';
import { AppFrame } from '../app/layout/app-frame.tsx';
import { HomeRoute } from '../app/pages/home-route.tsx';
import { FiscardPage } from '../features/cards/pages/fiscard-page.tsx';
import { ExchangePage } from '../features/exchange/pages/exchange-page.tsx';
import { EarnPage } from '../features/funds/pages/earn-page.tsx';
import { LoanPage } from '../features/loans/pages/loan-page.tsx';
import { pathTo } from '../config/paths.ts';
import { loadLocaleNamespace, namespacesForPath } from '../lib/i18n.ts';

/**
 * Build-time render of the public pages (header and page, as a guest, before banners arrive and
 * before any Ant Design island) in one language. `scripts/postbuild.mjs` puts both languages of
 * home into dist/index.html and of each other page into its own HTML file (served for its path by
 * the server); `public/boot.js` shows the right copy until the app renders the same layout over it.
 * See docs/performance.md "Prerendered public pages".
 */
function PrerenderLayout() {
  return (
    <AppFrame isHeaderFixed>
      <Outlet />
    </AppFrame>
  );
}

/**
 * The prerendered pages, by path, with their route ids: each is a route with `fixedHeader` in
 * `app/routes.tsx`, and renders with the namespaces `namespacesForPath` gives its path (the ones
 * the live app waits for before its first render).
 */
const PAGES: Record<string, { id: string; Component: ComponentType }> = {
  '/': { id: 'Home', Component: HomeRoute },
  [pathTo('Loan')]: { id: 'Loan', Component: LoanPage },
  [pathTo('Earn')]: { id: 'Earn', Component: EarnPage },
  [pathTo('Exchange')]: { id: 'Exchange', Component: ExchangePage },
  [pathTo('Fiscard')]: { id: 'Fiscard', Component: FiscardPage },
};

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

  const route =
    path === '/'
      ? { id: page.id, index: true, Component: page.Component, handle: { fixedHeader: true } }
      : { id: page.id, path, Component: page.Component, handle: { fixedHeader: true } };
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
    { identifierPrefix: `pre-${locale}-` },
  );
  if (missing.length > 0)
    throw new Error(`The ${locale} prerender of ${path} has untranslated keys: ${[...new Set(missing)].join(', ')}`);
  return markup;
}
