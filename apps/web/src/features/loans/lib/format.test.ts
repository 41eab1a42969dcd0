import { describe, expect, it } from 'vitest';
import { coinAmount, pct, usdPrice } from './format.ts';

/** The loan page's figures: coin amounts with their unit, prices at the cent, rates with at most 4 decimals. */
describe('loan formatting', () => {
  it('shows coin amounts with separators and unit', () => {
    expect(coinAmount('1000.000000', 'USDT')).toBe('1,000.00 USDT');
    expect(coinAmount('0.12345678', 'BTC')).toBe('0.12345678 BTC');
  });

  it('rounds a liquidation price up at the cent, a market price to the nearest', () => {
    expect(usdPrice('15873.015873', 'up')).toBe('15,873.02');
    expect(usdPrice('15873.011', 'nearest')).toBe('15,873.01');
    expect(usdPrice('abc')).toBe('abc');
  });

  it('keeps short rates and cuts long ones to 4 decimals', () => {
    expect(pct('12')).toBe('12%');
    expect(pct('45.20')).toBe('45.20%');
    expect(pct('0.0328767123')).toBe('0.0329%');
  });
});
