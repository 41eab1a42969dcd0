import { describe, expect, it } from 'vitest';
import { checkWithdrawAmount, maxWithdrawable, totalDebited } from './withdraw-rules.ts';

/** The withdraw form's amount rules, on USDT TRC20: min 10, max 500000, fee 1, 100 available. */
const LIMITS = {
  coin: 'USDT',
  withdrawMin: '10.000000',
  withdrawMax: '500000.000000',
  withdrawFee: '1.000000',
  available: '100.000000',
};

describe('withdraw amount rules', () => {
  it('accepts an amount within the limits whose total with the fee is available', () => {
    expect(checkWithdrawAmount('99', LIMITS)).toBeUndefined();
    expect(checkWithdrawAmount('10', LIMITS)).toBeUndefined();
  });
  it('refuses malformed, zero and over-precise amounts', () => {
    expect(checkWithdrawAmount('abc', LIMITS)).toEqual({ key: 'amountInvalid' });
    expect(checkWithdrawAmount('0', LIMITS)).toEqual({ key: 'amountInvalid' });
    expect(checkWithdrawAmount('1.0000001', LIMITS)).toEqual({ key: 'amountPrecision', decimals: 6 });
  });
  it('names the minimum, the maximum and the available balance', () => {
    expect(checkWithdrawAmount('9.999999', LIMITS)).toEqual({ key: 'withdrawMin', limit: '10.00', unit: 'USDT' });
    expect(checkWithdrawAmount('500000.000001', { ...LIMITS, available: '999999' })).toEqual({
      key: 'withdrawMax',
      limit: '500,000.00',
      unit: 'USDT',
    });
    expect(checkWithdrawAmount('99.000001', LIMITS)).toEqual({ key: 'exceedsAvailable' });
  });
  it('computes the total debited and the maximum withdrawable exactly', () => {
    expect(totalDebited('30', '1.000000', 'USDT')).toBe('31.000000');
    expect(maxWithdrawable(LIMITS)).toBe('99.000000');
    expect(maxWithdrawable({ ...LIMITS, available: '0.5' })).toBe('0.000000');
  });
});
