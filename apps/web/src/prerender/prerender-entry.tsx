import type { Locale } from '@meridian/contracts/locale';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createInstance, type Resource } from 'i18next';
import { renderToString } from 'react-dom/server';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { createStaticHandler, createStaticRouter, Outlet, StaticRouterProvider } from 'react-router';
import { AppFrame } from '../app/layout/app-frame.tsx';
import { HomeRoute } from '../app/pages/home-route.tsx';
import { HOME_NAMESPACES, loadLocaleNamespace } from '../lib/i18n.ts';

/**
 * Build-time render of the home page (header and page, as a guest, before banners arrive) in one
 * language. `scripts/postbuild.mjs` puts both languages into dist/index.html; `public/boot.js`
 * shows the right one until the app renders the same layout over it.
 */
function PrerenderLayout() {
  return (
    <AppFrame isHeaderFixed>
      <Outlet />
    </AppFrame>
  );
}

/**
 * Renders the home page in `locale` with the texts of `HOME_NAMESPACES`.
 * @throws when any text of the page has no translation (a key of a namespace that is not in
 *   `HOME_NAMESPACES`, or a key missing from its file): the static HTML would show the raw key until
 *   the app replaced it, so the build fails instead.
 */
export async function renderHome(locale: Locale): Promise<string> {
  const bundles = await Promise.all(
    HOME_NAMESPACES.map(async (namespace) => [namespace, await loadLocaleNamespace(locale, namespace)] as const),
  );
  const resources: Resource = { [locale]: Object.fromEntries(bundles) };
  const missing: string[] = [];
  const i18n = createInstance();
  await i18n.use(initReactI18next).init({
    lng: locale,
    fallbackLng: false,
    resources,
    ns: [...HOME_NAMESPACES],
    defaultNS: 'common',
    interpolation: { escapeValue: false },
    react: { useSuspense: false },
    saveMissing: true,
    missingKeyHandler: (_languages, namespace, key) => missing.push(`${namespace}:${key}`),
  });

  const handler = createStaticHandler([
    {
      id: 'Root',
      Component: PrerenderLayout,
      children: [{ id: 'Home', index: true, Component: HomeRoute, handle: { fixedHeader: true } }],
    },
  ]);
  const context = await handler.query(new Request('http://meridian.local/'));
  if (context instanceof Response) throw new Error('The home route redirected during prerender');
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
    throw new Error(`The ${locale} home prerender has untranslated keys: ${[...new Set(missing)].join(', ')}`);
  return markup;
}
