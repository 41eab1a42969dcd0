import { describe, expect, it } from 'vitest';
import { consumeBootParams, getStoredLocale, matchLocale } from './locale.ts';
import { STORAGE_KEYS, type KeyValueStore } from './storage.ts';

/** Locale start-up rules: stored choice, `?locale=` once, `?_lt=` user id. */

function memoryStore(initial: Record<string, string> = {}): KeyValueStore & { data: Map<string, string> } {
  const data = new Map(Object.entries(initial));
  return {
    data,
    getItem: (key) => data.get(key) ?? null,
    setItem: (key, value) => void data.set(key, value),
    removeItem: (key) => void data.delete(key),
  };
}

describe('matchLocale', () => {
  it('accepts the supported locales in any letter case and refuses the rest', () => {
    expect(matchLocale('en-US')).toBe('en-US');
    expect(matchLocale('zh-hk')).toBe('zh-HK');
    expect(matchLocale(' ZH-HK ')).toBe('zh-HK');
    expect(matchLocale('zh-CN')).toBeNull();
    expect(matchLocale('')).toBeNull();
    expect(matchLocale(null)).toBeNull();
  });
});

describe('getStoredLocale', () => {
  it('defaults to en-US, and ignores an unsupported stored value', () => {
    expect(getStoredLocale(memoryStore())).toBe('en-US');
    expect(getStoredLocale(memoryStore({ [STORAGE_KEYS.locale]: 'zh-HK' }))).toBe('zh-HK');
    expect(getStoredLocale(memoryStore({ [STORAGE_KEYS.locale]: 'fr-FR' }))).toBe('en-US');
  });
});

describe('consumeBootParams', () => {
  it('leaves a clean address alone and starts in the stored locale', () => {
    const store = memoryStore({ [STORAGE_KEYS.locale]: 'zh-HK' });
    expect(consumeBootParams('https://meridian.test/about?x=1#team', store)).toEqual({
      locale: 'zh-HK',
      cleanedUrl: null,
    });
  });

  it('stores ?locale= and removes it from the address, keeping other parameters and the hash', () => {
    const store = memoryStore();
    const result = consumeBootParams('https://meridian.test/product/earn?locale=zh-HK&ref=mail#faq', store);
    expect(result).toEqual({ locale: 'zh-HK', cleanedUrl: '/product/earn?ref=mail#faq' });
    expect(store.data.get(STORAGE_KEYS.locale)).toBe('zh-HK');
  });

  it('ignores an unsupported ?locale= but still removes it', () => {
    const store = memoryStore({ [STORAGE_KEYS.locale]: 'zh-HK' });
    expect(consumeBootParams('https://meridian.test/?locale=xx', store)).toEqual({ locale: 'zh-HK', cleanedUrl: '/' });
  });

  it('stores the user id of ?_lt= and removes it', () => {
    const store = memoryStore();
    const result = consumeBootParams('https://meridian.test/my/security?_lt=u-42&locale=en-US', store);
    expect(result).toEqual({ locale: 'en-US', cleanedUrl: '/my/security' });
    expect(store.data.get(STORAGE_KEYS.userId)).toBe('u-42');
  });
});
