import { DEFAULT_LOCALE, LOCALES, type Locale } from '@meridian/contracts/locale';
import { browserStore, STORAGE_KEYS, type KeyValueStore } from './storage.ts';

/** Query parameter that sets the locale once; it is removed from the address bar afterwards. */
export const LOCALE_QUERY_PARAM = 'locale';
/** Query parameter carrying the signed-in user's id from another page of the product. */
export const USER_ID_QUERY_PARAM = '_lt';

/** Names shown in the language picker, each in its own language. */
export const LOCALE_LABELS: Record<Locale, string> = {
  'en-US': 'English',
  'zh-HK': '繁體中文',
};

/** A supported locale matching `value` (case-insensitive: `zh-hk` → `zh-HK`), or null. */
export function matchLocale(value: string | null | undefined): Locale | null {
  if (!value) return null;
  const lower = value.trim().toLowerCase();
  return LOCALES.find((locale) => locale.toLowerCase() === lower) ?? null;
}

/** The stored locale, or en-US when none (or an unsupported one) is stored. */
export function getStoredLocale(store: KeyValueStore = browserStore()): Locale {
  return matchLocale(store.getItem(STORAGE_KEYS.locale)) ?? DEFAULT_LOCALE;
}

export function storeLocale(locale: Locale, store: KeyValueStore = browserStore()): void {
  store.setItem(STORAGE_KEYS.locale, locale);
}

/** What the boot step found in the address bar. */
export interface BootParams {
  /** The locale the app starts in. */
  locale: Locale;
  /** The address to show instead of the current one, or null when nothing was removed. */
  cleanedUrl: string | null;
}

/**
 * Reads `?locale=` and `?_lt=` from `href`, stores what they carry, and returns the locale to start
 * in with the address stripped of both parameters. An unsupported `?locale=` is ignored (the stored
 * choice stays) but still removed, so a bad link does not linger in the address bar.
 */
export function consumeBootParams(href: string, store: KeyValueStore = browserStore()): BootParams {
  const url = new URL(href);
  const { searchParams } = url;
  let changed = false;

  if (searchParams.has(LOCALE_QUERY_PARAM)) {
    const requested = matchLocale(searchParams.get(LOCALE_QUERY_PARAM));
    if (requested) storeLocale(requested, store);
    searchParams.delete(LOCALE_QUERY_PARAM);
    changed = true;
  }
  if (searchParams.has(USER_ID_QUERY_PARAM)) {
    const userId = searchParams.get(USER_ID_QUERY_PARAM)?.trim();
    if (userId) store.setItem(STORAGE_KEYS.userId, userId);
    searchParams.delete(USER_ID_QUERY_PARAM);
    changed = true;
  }

  const cleanedUrl = changed ? `${url.pathname}${url.search}${url.hash}` : null;
  return { locale: getStoredLocale(store), cleanedUrl };
}

/** Applies `consumeBootParams` to the real address bar (history.replaceState, no reload). */
export function bootLocale(win: Window = window): Locale {
  const { locale, cleanedUrl } = consumeBootParams(win.location.href);
  if (cleanedUrl !== null) win.history.replaceState(win.history.state, '', cleanedUrl);
  win.document.documentElement.lang = locale;
  return locale;
}

/** Stores the new locale and reloads, so that only that language's texts are loaded. */
export function changeLocale(locale: Locale, win: Window = window): void {
  storeLocale(locale);
  win.location.reload();
}
