import { describe, expect, it } from 'vitest';
import { getHongKongCalendar } from '../../platform/calendar/business-calendar.ts';
import { addDays, creditDayE8, dailyInterestE8, firstBusinessDay, monthOf } from './funds.interest.ts';

/**
 * The interest rules by hand: shares × rate / 365, tiers summed, rounded down once to 10⁻⁸ USD a
 * day; whole cents credited from the running carry (decision 0008).
 */
describe('dailyInterestE8', () => {
  const current = [
    { upToMinor: 5_000_000n, annualRateBps: 365 },
    { upToMinor: null, annualRateBps: 200 },
  ];

  it('pays 1.00 a day on 10,000.00 at 3.65 % (100,000,000 e8)', () => {
    expect(dailyInterestE8(1_000_000n, current)).toBe(100_000_000n);
  });

  it('keeps what the cent dropped: 12,345.67 → 1.234567, 99.00 → 0.0099, 0.01 → 0.0000001', () => {
    expect(dailyInterestE8(1_234_567n, current)).toBe(123_456_700n);
    expect(dailyInterestE8(9_900n, current)).toBe(990_000n);
    expect(dailyInterestE8(1n, current)).toBe(100n);
  });

  it('applies each tier to its part: 60,000.00 → (5,000,000 × 365 + 1,000,000 × 200) × 10⁶ / 3,650,000 = 554,794,520.5 → 554,794,520', () => {
    expect(dailyInterestE8(6_000_000n, current)).toBe(554_794_520n);
    expect(dailyInterestE8(5_000_000n, current)).toBe(500_000_000n);
  });

  it('pays 1.09589041 a day on 5,000.00 at 8 % and 0.82191780 at 6 %, nothing on nothing', () => {
    expect(dailyInterestE8(500_000n, [{ upToMinor: null, annualRateBps: 800 }])).toBe(109_589_041n);
    expect(dailyInterestE8(500_000n, [{ upToMinor: null, annualRateBps: 600 }])).toBe(82_191_780n);
    expect(dailyInterestE8(0n, current)).toBe(0n);
  });
});

describe('creditDayE8', () => {
  it('credits whole cents and carries the rest: 99.00 at 3.65 % pays a cent on its second day', () => {
    expect(creditDayE8(0n, 990_000n)).toEqual({ creditedMinor: 0n, carryE8: 990_000n });
    expect(creditDayE8(990_000n, 990_000n)).toEqual({ creditedMinor: 1n, carryE8: 980_000n });
    expect(creditDayE8(456_700n, 123_456_700n)).toEqual({ creditedMinor: 123n, carryE8: 913_400n });
  });

  it('over 31 days 99.00 at 3.65 % credits floor(31 × 990,000 / 10⁶) = 30 cents and carries 690,000', () => {
    let carry = 0n;
    let credited = 0n;
    for (let day = 0; day < 31; day += 1) {
      const next = creditDayE8(carry, 990_000n);
      credited += next.creditedMinor;
      carry = next.carryE8;
    }
    expect({ credited, carry }).toEqual({ credited: 30n, carry: 690_000n });
  });
});

describe('Hong Kong calendar days', () => {
  it('finds the first business day of a month: weekends and HK public holidays skipped', () => {
    const calendar = getHongKongCalendar();
    expect(firstBusinessDay('2026-02', calendar)).toBe('2026-02-02'); // 1 February 2026 is a Sunday
    expect(firstBusinessDay('2026-03', calendar)).toBe('2026-03-02'); // 1 March 2026 is a Sunday
    expect(firstBusinessDay('2028-03', calendar)).toBe('2028-03-01'); // a Wednesday
    expect(firstBusinessDay('2026-10', calendar)).toBe('2026-10-02'); // 1 October: National Day
    expect(firstBusinessDay('2027-01', calendar)).toBe('2027-01-04'); // New Year's Day is a Friday
  });

  it('adds days across a leap February and names the month', () => {
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2028-02-29', 1)).toBe('2028-03-01');
    expect(addDays('2026-03-15', 90)).toBe('2026-06-13');
    expect(monthOf('2026-01-31')).toBe('2026-01');
  });
});
