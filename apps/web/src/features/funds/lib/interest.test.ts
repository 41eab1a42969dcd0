import { describe, expect, it } from 'vitest';
import { dailyInterestMinor, expectedInterest, rateMillionths, tierSlices, tiersOf } from './interest.ts';

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
    expect(expectedInterest('10000', FLAT_365, 30)).toEqual({ dailyMinor: 100n, totalMinor: 3000n });
  });

  it('rounds each day down to the cent before counting the days', () => {
    // 1,000 × 3.65 % / 365 = 0.10 exactly; 999.99 → 0.0999999 → 0.09 a day, 0.90 over 10 days.
    expect(expectedInterest('999.99', FLAT_365, 10)).toEqual({ dailyMinor: 9n, totalMinor: 90n });
  });

  it('a 90-day order of 5,000 at 8 % earns 90 × floor(5000 × 0.08 / 365) = 90 × 1.09', () => {
    expect(expectedInterest('5000', [{ upToShares: null, annualRate: '8' }], 90)?.totalMinor).toBe(9810n);
  });

  it('applies each tier to its part of the holding across the boundary', () => {
    // 60,000: 50,000 at 8 % + 10,000 at 4 % = 4,400 a year → 12.054794… → 12.05 a day.
    expect(expectedInterest('60000', TIERED, 1)?.dailyMinor).toBe(1205n);
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
    expect(dailyInterestMinor(0n, TIERED)).toBe(0n);
  });
});

describe('tiersOf', () => {
  it('uses the headline rate when the product has no tiers', () => {
    expect(tiersOf({ annualRate: '3.65', rateTiers: [] })).toEqual(FLAT_365);
    expect(tiersOf({ annualRate: '8', rateTiers: TIERED })).toBe(TIERED);
  });
});
