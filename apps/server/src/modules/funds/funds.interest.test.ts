import { describe, expect, it } from 'vitest';
import { getHongKongCalendar } from '../../platform/calendar/business-calendar.ts';
import { addDays, dailyInterestMinor, firstBusinessDay, monthOf } from './funds.interest.ts';

/** The interest rules of issue 17 by hand: shares × rate / 365, tiers summed, rounded down once per holding per day. */
describe('dailyInterestMinor', () => {
  const current = [
    { upToMinor: 5_000_000n, annualRateBps: 365 },
    { upToMinor: null, annualRateBps: 200 },
  ];

  it('pays 1.00 a day on 10,000.00 at 3.65 %', () => {
    expect(dailyInterestMinor(1_000_000n, current)).toBe(100n);
  });

  it('rounds down once per holding: 10,001.00 earns 100.01 cents → 100', () => {
    expect(dailyInterestMinor(1_000_100n, current)).toBe(100n);
  });

  it('applies each tier to its part: 60,000.00 → (5,000,000 × 365 + 1,000,000 × 200) / 3,650,000 = 554.79 → 554', () => {
    expect(dailyInterestMinor(6_000_000n, current)).toBe(554n);
    expect(dailyInterestMinor(5_000_000n, current)).toBe(500n);
  });

  it('pays 1.09 a day on 5,000.00 at 8 % (109.589 cents rounded down) and nothing on nothing', () => {
    expect(dailyInterestMinor(500_000n, [{ upToMinor: null, annualRateBps: 800 }])).toBe(109n);
    expect(dailyInterestMinor(0n, current)).toBe(0n);
    expect(dailyInterestMinor(1n, current)).toBe(0n);
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
