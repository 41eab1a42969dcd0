import { describe, expect, it } from 'vitest';
import { readAmountInput } from './amount-input.ts';

/** A typed amount is read once, with the contract's rules: empty, refused with its message key, or minor units. */
describe('readAmountInput', () => {
  it('reads BTC to the satoshi and a stablecoin to 6 decimals', () => {
    expect(readAmountInput(' 0.2 ', 'BTC')).toEqual({ kind: 'ok', minor: 20_000_000n, text: '0.2' });
    expect(readAmountInput('1000', 'USDT')).toEqual({ kind: 'ok', minor: 1_000_000_000n, text: '1000' });
  });

  it('refuses too many decimals, zero and text', () => {
    expect(readAmountInput('0.123456789', 'BTC')).toMatchObject({
      kind: 'invalid',
      refusal: { messageKey: 'validation.amountPrecision' },
    });
    expect(readAmountInput('0', 'USDT')).toMatchObject({
      kind: 'invalid',
      refusal: { messageKey: 'validation.amountPositive' },
    });
    expect(readAmountInput('abc', 'USDT')).toMatchObject({
      kind: 'invalid',
      refusal: { messageKey: 'validation.amount' },
    });
    expect(readAmountInput('  ', 'USDT')).toEqual({ kind: 'empty' });
  });
});
