import { describe, expect, it } from 'vitest';
import { toMinorUnits } from './chain.amounts.ts';

describe('toMinorUnits', () => {
  it('turns wei into ETH minor units (10^-8) and keeps the rest as dust', () => {
    expect(toMinorUnits(1_500_000_000_000_000_000n, 18, 'ETH')).toEqual({ minor: 150_000_000n, dust: 0n });
    expect(toMinorUnits(12_345_678_901n, 18, 'ETH')).toEqual({ minor: 1n, dust: 2_345_678_901n });
    expect(toMinorUnits(9_999_999_999n, 18, 'ETH')).toEqual({ minor: 0n, dust: 9_999_999_999n });
  });

  it('keeps 6-decimal stablecoins as they are and scales up a token with fewer decimals', () => {
    expect(toMinorUnits(250_000_000n, 6, 'USDT')).toEqual({ minor: 250_000_000n, dust: 0n });
    expect(toMinorUnits(7n, 2, 'USDC')).toEqual({ minor: 70_000n, dust: 0n });
  });
});
