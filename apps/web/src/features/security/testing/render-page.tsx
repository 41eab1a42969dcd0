import type { Locale } from '@meridian/contracts/locale';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, type RenderResult } from '@testing-library/react';
import { createInstance, type i18n as I18n } from 'i18next';
import type { ReactNode } from 'react';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import enIdentity from '../../../locales/en-US/identity.json';
import zhIdentity from '../../../locales/zh-HK/identity.json';

/**
 * Test support for the security feature's component tests: the real `identity` texts of both
 * languages (so a test reads what the user reads), a fresh query client and a router.
 */

/** An i18next instance in `locale` with the real `identity` namespace of en-US and zh-HK. */
export async function identityI18n(locale: Locale): Promise<I18n> {
  const instance = createInstance();
  await instance.use(initReactI18next).init({
    lng: locale,
    fallbackLng: false,
    resources: { 'en-US': { identity: enIdentity }, 'zh-HK': { identity: zhIdentity } },
    defaultNS: 'identity',
    interpolation: { escapeValue: false },
  });
  return instance;
}

/**
 * What Ant Design reads and jsdom lacks: `matchMedia` (responsive helpers) and `ResizeObserver`
 * (auto-sized text areas); neither needs to react in these tests.
 */
export function polyfillJsdom(): void {
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
  window.matchMedia ??= ((query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  })) as typeof window.matchMedia;
}

/** Renders `ui` in `locale` inside the providers a page needs; returns the render and its query client. */
export async function renderInLocale(
  ui: ReactNode,
  locale: Locale,
): Promise<RenderResult & { queryClient: QueryClient; i18n: I18n }> {
  const i18n = await identityI18n(locale);
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const result = render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <MemoryRouter>{ui}</MemoryRouter>
      </QueryClientProvider>
    </I18nextProvider>,
  );
  return Object.assign(result, { queryClient, i18n });
}
