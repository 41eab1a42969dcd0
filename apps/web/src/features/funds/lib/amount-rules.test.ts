import { describe, expect, it } from 'vitest';
import { checkFundAmount, limitLeftOf, usableUsdOf } from './amount-rules.ts';

const BOUNDS = { min: '100.00', max: '1000000.00', limitLeft: '5000.00', available: '2500.50' };

describe('checkFundAmount', () => {
  it('passes an amount inside every bound', () => {
    expect(checkFundAmount('1000', BOUNDS)).toBeNull();
    expect(checkFundAmount(' 2500.50 ', BOUNDS)).toBeNull();
  });

  it('names the first rule broken, with its amount formatted for display', () => {
    expect(checkFundAmount('1.005', BOUNDS)).toEqual({ key: 'format' });
    expect(checkFundAmount('1e3', BOUNDS)).toEqual({ key: 'format' });
    expect(checkFundAmount('0.00', BOUNDS)).toEqual({ key: 'zero' });
    expect(checkFundAmount('99.99', BOUNDS)).toEqual({ key: 'belowMin', amount: '100.00' });
    expect(checkFundAmount('2000000', BOUNDS)).toEqual({ key: 'aboveMax', amount: '1,000,000.00' });
    expect(checkFundAmount('6000', BOUNDS)).toEqual({ key: 'limit', amount: '5,000.00' });
    expect(checkFundAmount('2500.51', BOUNDS)).toEqual({ key: 'insufficient', amount: '2,500.50' });
  });

  it('skips bounds it does not know', () => {
    expect(checkFundAmount('99999999', {})).toBeNull();
  });
});

describe('limitLeftOf', () => {
  it('is the limit less the holding, never below zero', () => {
    expect(limitLeftOf('50000.00', '1000.00')).toBe('49000.00');
    expect(limitLeftOf('50000.00', '60000.00')).toBe('0.00');
    expect(limitLeftOf(undefined, '1.00')).toBeNull();
  });
});

describe('usableUsdOf', () => {
  it('cuts a 6-decimal coin balance down to whole cents', () => {
    expect(usableUsdOf('1234.567891', 'USDT')).toBe('1234.56');
    expect(usableUsdOf('0.009999', 'USDC')).toBe('0.00');
    expect(usableUsdOf('12.30', 'USD')).toBe('12.30');
    expect(usableUsdOf('garbage', 'USDT')).toBe('0.00');
  });
});
