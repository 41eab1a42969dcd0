import { describe, expect, it } from 'vitest';
import { dailyInterestE8, expectedInterest, rateMillionths, tierSlices, tiersOf } from './interest.ts';

const FLAT_365 = [{ upToShares: null, annualRate: '3.65' }];
const TIERED = [
  { upToShares: '50000.00', annualRate: '8' },
  { upToShares: null, annualRate: '4' },
];

describe('rateMillionths', () => {
  it('reads percent decimals exactly and refuses what is no rate', () => {
    expect(rateMillionths('3.65')).toBe(3_650_000n);
    expect(rateMillionths('10.8')).toBe(10_800_000n);
    expect(rateMillionths('0')).toBe(0n);
    expect(rateMillionths('-1')).toBeNull();
    expect(rateMillionths('1.1234567')).toBeNull();
  });
});

describe('expectedInterest', () => {
  it('10,000 USD at 3.65 % earns exactly 1.00 a day (10000 × 0.0365 / 365)', () => {
    expect(expectedInterest('10000', FLAT_365, 30)).toEqual({ dailyE8: 100_000_000n, totalMinor: 3000n });
  });

  it('keeps the part of a day below the cent and rounds only the total down to the cent', () => {
    // 999.99 → 0.099999 a day (9,999,900 e8): 0.99 over 10 days (0.90 when each day lost its sub-cent).
    expect(expectedInterest('999.99', FLAT_365, 10)).toEqual({ dailyE8: 9_999_900n, totalMinor: 99n });
    // 99.00 → 0.0099 a day: 0.30 over 31 days.
    expect(expectedInterest('99', FLAT_365, 31)).toEqual({ dailyE8: 990_000n, totalMinor: 30n });
  });

  it('a 90-day order of 5,000 at 8 % earns floor(90 × 1.09589041) = 98.63', () => {
    expect(expectedInterest('5000', [{ upToShares: null, annualRate: '8' }], 90)?.totalMinor).toBe(9863n);
  });

  it('applies each tier to its part of the holding across the boundary', () => {
    // 60,000: 50,000 at 8 % + 10,000 at 4 % = 4,400 a year → 12.05479452 a day.
    expect(expectedInterest('60000', TIERED, 1)?.dailyE8).toBe(1_205_479_452n);
    expect(tierSlices(6_000_000n, TIERED)).toEqual([
      { sliceMinor: 5_000_000n, rate: '8' },
      { sliceMinor: 1_000_000n, rate: '4' },
    ]);
    // Below the boundary only the first tier applies.
    expect(tierSlices(100_000n, TIERED)).toEqual([{ sliceMinor: 100_000n, rate: '8' }]);
  });

  it('refuses an amount with more than 2 decimals, a bad amount and a non-positive day count', () => {
    expect(expectedInterest('1.001', FLAT_365, 1)).toBeNull();
    expect(expectedInterest('abc', FLAT_365, 1)).toBeNull();
    expect(expectedInterest('100', FLAT_365, 0)).toBeNull();
    expect(expectedInterest('100', FLAT_365, 1.5)).toBeNull();
  });

  it('is zero for a zero amount', () => {
    expect(dailyInterestE8(0n, TIERED)).toBe(0n);
  });
});

describe('tiersOf', () => {
  it('uses the headline rate when the product has no tiers', () => {
    expect(tiersOf({ annualRate: '3.65', rateTiers: [] })).toEqual(FLAT_365);
    expect(tiersOf({ annualRate: '8', rateTiers: TIERED })).toBe(TIERED);
  });
});
