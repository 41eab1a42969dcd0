import { describe, expect, it } from 'vitest';
import {
  ASSET_CODES,
  ASSET_DISPLAY_DECIMALS,
  ASSET_PRECISION,
  ISO_4217_MINOR_UNITS,
  iso4217MinorUnits,
} from './assets.ts';
import { formatMoney, formatMoneyOf, MONEY_ROUNDING } from './money-format.ts';

describe('display decimals per asset', () => {
  it('shows coins at their ledger precision, stablecoins and fiat at ISO 4217 minor units', () => {
    expect(ASSET_DISPLAY_DECIMALS).toEqual({
      BTC: 8,
      ETH: 8,
      USDT: 2,
      USDC: 2,
      USDE: 2,
      EURE: 2,
      USD: 2,
      EUR: 2,
      GBP: 2,
      JPY: 0,
    });
    expect(iso4217MinorUnits('JPY')).toBe(0);
  });

  it('holds the ISO 4217 minor units as the platform Intl data gives them', () => {
    for (const [currency, minorUnits] of Object.entries(ISO_4217_MINOR_UNITS)) {
      const intl = new Intl.NumberFormat('en-US', { style: 'currency', currency }).resolvedOptions();
      expect(minorUnits, currency).toBe(intl.maximumFractionDigits);
    }
  });

  it('never shows more decimals than the ledger holds', () => {
    for (const asset of ASSET_CODES) expect(ASSET_DISPLAY_DECIMALS[asset]).toBeLessThanOrEqual(ASSET_PRECISION[asset]);
  });
});

describe('formatMoney per asset, en-US', () => {
  it.each([
    ['1009.863014', 'USDT', '1,009.86 USDT'],
    ['1000.000000', 'USDC', '1,000.00 USDC'],
    ['0.5', 'USDE', '0.50 USDE'],
    ['12.345678', 'EURE', '12.35 EURE'],
    ['0.1', 'BTC', '0.10000000 BTC'],
    ['0.002', 'BTC', '0.00200000 BTC'],
    ['1.5', 'ETH', '1.50000000 ETH'],
    ['3180.231', 'USD', '$3,180.23'],
    ['1234.5', 'EUR', '€1,234.50'],
    ['1234.5', 'GBP', '£1,234.50'],
    ['1234.5', 'JPY', '¥1,235'],
    ['0', 'USD', '$0.00'],
  ] as const)('%s %s → %s', (amount, asset, shown) => {
    expect(formatMoney(amount, asset)).toBe(shown);
  });

  it('reads minor units (bigint) and the decimal string of the same amount alike', () => {
    expect(formatMoney(1_009_863_014n, 'USDT')).toBe(formatMoney('1009.863014', 'USDT'));
    expect(formatMoney(10_000_000n, 'BTC')).toBe('0.10000000 BTC');
    expect(formatMoney(318_024n, 'USD')).toBe('$3,180.24');
    expect(formatMoney(1235n, 'JPY')).toBe('¥1,235');
  });

  it('names the asset by code or not at all when asked', () => {
    expect(formatMoney('3180.24', 'USD', { unit: 'code' })).toBe('3,180.24 USD');
    expect(formatMoney('3180.24', 'USD', { unit: 'none' })).toBe('3,180.24');
    expect(formatMoney('0.1', 'BTC', { unit: 'none' })).toBe('0.10000000');
  });

  it('keeps the sign of a debit', () => {
    expect(formatMoney('-1234.5', 'USDT')).toBe('-1,234.50 USDT');
    expect(formatMoney(-150n, 'USD')).toBe('-$1.50');
  });

  it('returns text that is no plain decimal as it is', () => {
    expect(formatMoney('abc', 'USD')).toBe('abc');
    expect(formatMoney('1e5', 'USD')).toBe('1e5');
    expect(formatMoneyOf('1.5', 'DOGE')).toBe('1.5 DOGE');
    expect(formatMoneyOf('1.5', 'USD')).toBe('$1.50');
  });
});

describe('formatMoney in zh-HK', () => {
  it.each([
    ['3180.231', 'USD', 'US$3,180.23'],
    ['1009.863014', 'USDT', '1,009.86 USDT'],
    ['0.1', 'BTC', '0.10000000 BTC'],
    ['1234.5', 'EUR', '€1,234.50'],
    ['1234.5', 'JPY', '¥1,235'],
  ] as const)('%s %s → %s', (amount, asset, shown) => {
    expect(formatMoney(amount, asset, { locale: 'zh-HK' })).toBe(shown);
  });
});

describe('rounding directions', () => {
  it('rounds to nearest with ties away from zero by default (half-up)', () => {
    expect(formatMoney('0.125', 'USD')).toBe('$0.13');
    expect(formatMoney('0.135', 'USD')).toBe('$0.14');
    expect(formatMoney('0.124999', 'USD')).toBe('$0.12');
    expect(formatMoney('-0.125', 'USD')).toBe('-$0.13');
    expect(formatMoney('2.5', 'JPY')).toBe('¥3');
  });

  it('rounds an amount owed and a liquidation price up, an amount available down', () => {
    expect(formatMoney('3180.231', 'USD', { rounding: MONEY_ROUNDING.liquidationPrice })).toBe('$3,180.24');
    expect(formatMoney('3180.231', 'USD', { rounding: MONEY_ROUNDING.marginCallPrice })).toBe('$3,180.24');
    expect(formatMoney('1009.863014', 'USDT', { rounding: MONEY_ROUNDING.owed })).toBe('1,009.87 USDT');
    expect(formatMoney('1009.869999', 'USDT', { rounding: MONEY_ROUNDING.available })).toBe('1,009.86 USDT');
    expect(formatMoney('0.000000001', 'BTC', { rounding: 'up' })).toBe('0.00000001 BTC');
    expect(formatMoney('0.999999999', 'BTC', { rounding: 'down' })).toBe('0.99999999 BTC');
  });

  it('leaves an amount already at its display decimals unchanged in every direction', () => {
    for (const rounding of ['nearest', 'up', 'down'] as const)
      expect(formatMoney('3180.24', 'USD', { rounding, locale: 'zh-HK' })).toBe('US$3,180.24');
  });

  it('rounds a debit by its magnitude', () => {
    expect(formatMoney('-1.001', 'USD', { rounding: 'up' })).toBe('-$1.01');
    expect(formatMoney('-1.009', 'USD', { rounding: 'down' })).toBe('-$1.00');
  });
});

describe('a market price', () => {
  it('keeps the price’s own decimals beyond 2, never rounding', () => {
    expect(formatMoney('0.99980001', 'USD', { keepDecimals: true })).toBe('$0.99980001');
    expect(formatMoney('97196.9', 'USD', { keepDecimals: true })).toBe('$97,196.90');
    expect(formatMoney('60000.00000001', 'USD', { keepDecimals: true, locale: 'zh-HK' })).toBe('US$60,000.00000001');
  });
});

describe('values beyond 2^53', () => {
  const big = 2n ** 64n + 12_345n; // 18446744073709563961 minor units

  it('formats a huge bigint exactly, without a float', () => {
    expect(formatMoney(big, 'USD')).toBe('$184,467,440,737,095,639.61');
    expect(formatMoney(big, 'BTC', { locale: 'zh-HK' })).toBe('184,467,440,737.09563961 BTC');
  });

  it('rounds a huge decimal string exactly in each direction', () => {
    const text = '123456789012345678901234567890.125';
    expect(formatMoney(text, 'USDT')).toBe('123,456,789,012,345,678,901,234,567,890.13 USDT');
    expect(formatMoney(text, 'USDT', { rounding: 'down' })).toBe('123,456,789,012,345,678,901,234,567,890.12 USDT');
    expect(formatMoney('9007199254740993.001', 'USD', { rounding: 'up' })).toBe('$9,007,199,254,740,993.01');
  });
});
