import type { Locale } from '@meridian/contracts/locale';
import i18next, { type BackendModule, type ReadCallback } from 'i18next';
import { initReactI18next } from 'react-i18next';

/**
 * Translation namespaces. Each is one JSON file per locale under `src/locales/<locale>/`, loaded on
 * first use, so a page only downloads the texts of the active language that it needs.
 */
export const NAMESPACES = [
  'common',
  'home',
  'market',
  'marketing',
  'account',
  'legal',
  'admin',
  'funds',
  'loans',
  'exchange',
] as const;
export type Namespace = (typeof NAMESPACES)[number];

/**
 * Every namespace the home page shows text from (shell, home page, market table). The build-time
 * prerender renders with exactly these and fails on any key it cannot translate, and the live app
 * waits for them before its first render on `/`, so neither ever paints a raw key.
 */
export const HOME_NAMESPACES = ['common', 'home', 'market'] as const satisfies readonly Namespace[];

type LocaleModule = { default: Record<string, unknown> };
const localeLoaders = import.meta.glob<LocaleModule>('../locales/*/*.json');

/** Loads one namespace of one locale; a missing file is a programming error and is reported. */
export function loadLocaleNamespace(locale: string, namespace: string): Promise<Record<string, unknown>> {
  const load = localeLoaders[`../locales/${locale}/${namespace}.json`];
  if (!load) return Promise.reject(new Error(`No translations for ${locale}/${namespace}`));
  return load().then((module) => module.default);
}

const lazyJsonBackend: BackendModule = {
  type: 'backend',
  init() {},
  read(language: string, namespace: string, callback: ReadCallback) {
    loadLocaleNamespace(language, namespace).then(
      (resources) => callback(null, resources),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), false),
    );
  },
};

/**
 * Starts i18next in `locale` and waits for `namespaces` (the shell's texts plus the first page's),
 * so the first paint already shows real text. Other namespaces load when a component asks for them.
 */
export async function initI18n(locale: Locale, namespaces: readonly Namespace[]): Promise<typeof i18next> {
  await i18next
    .use(lazyJsonBackend)
    .use(initReactI18next)
    .init({
      lng: locale,
      // Only the active language ships: no fallback language is downloaded.
      fallbackLng: false,
      supportedLngs: ['en-US', 'zh-HK'],
      load: 'currentOnly',
      ns: [...namespaces],
      defaultNS: 'common',
      interpolation: { escapeValue: false },
      react: { useSuspense: true },
    });
  return i18next;
}

/** The namespaces the first route needs besides `common`. */
export function namespacesForPath(pathname: string): Namespace[] {
  if (pathname === '/' || pathname === '') return [...HOME_NAMESPACES];
  if (pathname.startsWith('/my') || pathname.startsWith('/account') || pathname.startsWith('/messages')) {
    return ['common', 'account'];
  }
  if (pathname.startsWith('/legal')) return ['common', 'legal'];
  // The back office shows its own texts only.
  if (pathname === '/admin' || pathname.startsWith('/admin/')) return ['common', 'admin'];
  const pageNamespace = PRODUCT_PAGE_NAMESPACES[pathname.replace(/\/+$/, '')];
  return pageNamespace ? ['common', 'marketing', pageNamespace] : ['common', 'marketing'];
}

/**
 * The namespace a product page's own module reads besides `marketing`: loaded with the
 * first texts, in parallel, instead of after the page's module arrived, which held the page's first
 * paint back by one more request. Keys are `ROUTE_PATHS` (`config/paths.ts`).
 */
const PRODUCT_PAGE_NAMESPACES: Partial<Record<string, Namespace>> = {
  '/product/earn': 'funds',
  '/loan': 'loans',
  '/exchange': 'exchange',
};

/** Translate outside React (HTTP client messages); returns the key until i18next is ready. */
export function translate(key: string, options?: Record<string, unknown>): string {
  return i18next.isInitialized ? i18next.t(key, options) : key;
}
