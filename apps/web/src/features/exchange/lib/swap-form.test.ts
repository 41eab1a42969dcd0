import type { BalanceContent } from '@meridian/contracts/wallet';
import { describe, expect, it } from 'vitest';
import {
  availableOf,
  bpsToPercentText,
  checkSwapAmount,
  exceedsAvailable,
  minimumReceived,
  secondsLeft,
  slippagePercentToBps,
} from './swap-form.ts';

const balance: BalanceContent = {
  overview: { totalUsd: '250.00', accounts: [] },
  wallet: {
    accounts: [
      {
        accountType: 'MainAccount',
        totalUsd: '250.00',
        assets: [
          { coinCode: 'USDT', type: 'available', amount: '250.000000', convert: '250.00' },
          { coinCode: 'USDT', type: 'frozen', amount: '40.000000', convert: '40.00' },
        ],
      },
    ],
  },
};

describe('checkSwapAmount (amount rules, exact)', () => {
  it('refuses what is not a positive decimal', () => {
    for (const text of ['', 'abc', '-1', '1e3', '0', '0.000', '1,000'])
      expect(checkSwapAmount(text, 'USDT', 'from', '250')).toEqual({ key: 'amountInvalid' });
  });

  it('refuses more decimals than the coin has, naming them', () => {
    expect(checkSwapAmount('1.1234567', 'USDT', 'from', undefined)).toEqual({ key: 'amountPrecision', decimals: 6 });
    expect(checkSwapAmount('0.123456789', 'BTC', 'to', undefined)).toEqual({ key: 'amountPrecision', decimals: 8 });
  });

  it('refuses an amount paid above the available balance, to the last minor unit', () => {
    expect(checkSwapAmount('250', 'USDT', 'from', '250.000000')).toBeUndefined();
    expect(checkSwapAmount('250.000001', 'USDT', 'from', '250.000000')).toEqual({ key: 'exceedsAvailable' });
  });

  it('does not check the balance for an amount to receive, nor while the balance is unknown', () => {
    expect(checkSwapAmount('1000', 'USDE', 'to', '0.000000')).toBeUndefined();
    expect(checkSwapAmount('1000', 'USDT', 'from', undefined)).toBeUndefined();
  });
});

describe('exceedsAvailable (the quoted amount to pay)', () => {
  it('compares in minor units', () => {
    expect(exceedsAvailable('250.000001', 'USDT', '250.000000')).toBe(true);
    expect(exceedsAvailable('250.000000', 'USDT', '250')).toBe(false);
    expect(exceedsAvailable('1', 'USDT', undefined)).toBe(false);
  });
});

describe('availableOf', () => {
  it('reads the Main account’s available amount of the coin, zero when it holds none', () => {
    expect(availableOf(balance, 'USDT')).toBe('250.000000');
    expect(availableOf(balance, 'BTC')).toBe('0.00000000');
    expect(availableOf(undefined, 'USDT')).toBeUndefined();
  });
});

describe('secondsLeft', () => {
  it('counts whole seconds up and stops at zero', () => {
    expect(secondsLeft(10_000, 0)).toBe(10);
    expect(secondsLeft(10_000, 800)).toBe(10);
    expect(secondsLeft(10_000, 9_001)).toBe(1);
    expect(secondsLeft(10_000, 10_000)).toBe(0);
    expect(secondsLeft(10_000, 12_000)).toBe(0);
  });
});

describe('slippage', () => {
  it('reads percent into basis points, 0–5% with at most 2 decimals', () => {
    expect(slippagePercentToBps('0.5')).toBe(50);
    expect(slippagePercentToBps('1')).toBe(100);
    expect(slippagePercentToBps('0.05')).toBe(5);
    expect(slippagePercentToBps('5')).toBe(500);
    for (const text of ['5.01', '10', '0.123', '-1', 'abc', '']) expect(slippagePercentToBps(text)).toBeUndefined();
  });

  it('writes basis points back as percent', () => {
    expect(bpsToPercentText(50)).toBe('0.5');
    expect(bpsToPercentText(105)).toBe('1.05');
    expect(bpsToPercentText(300)).toBe('3');
  });

  it('gives the least received at the slippage, rounded down', () => {
    expect(minimumReceived('99.900000', 'USDE', 50)).toBe('99.400500');
    expect(minimumReceived('0.00000003', 'BTC', 50)).toBe('0.00000002');
  });
});
