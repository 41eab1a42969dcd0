import i18next from 'i18next';
import { afterAll, describe, expect, it } from 'vitest';
import { money } from './money.ts';

/** The page's formatter follows the language the page is shown in (the global i18next instance). */
describe('money', () => {
  afterAll(async () => {
    await i18next.changeLanguage('en-US');
  });

  it('formats in en-US before any language is chosen', () => {
    expect(money('3180.231', 'USD', { rounding: 'up' })).toBe('$3,180.24');
    expect(money('1009.863014', 'USDT')).toBe('1,009.86 USDT');
    expect(money(10_000_000n, 'BTC')).toBe('0.10000000 BTC');
  });

  it('follows the page language: zh-HK names US dollars US$', async () => {
    await i18next.init({ lng: 'zh-HK', resources: {} });
    expect(money('3180.231', 'USD', { rounding: 'up' })).toBe('US$3,180.24');
    expect(money('0.002', 'BTC', { unit: 'none' })).toBe('0.00200000');
    await i18next.changeLanguage('en-US');
    expect(money('3180.231', 'USD', { rounding: 'up' })).toBe('$3,180.24');
  });

  it('shows an amount of an unknown asset as given', () => {
    expect(money('12.5', 'DOGE')).toBe('12.5 DOGE');
    expect(money(5n, 'DOGE')).toBe('5 DOGE');
  });
});
