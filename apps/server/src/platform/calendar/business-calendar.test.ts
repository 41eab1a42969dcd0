import { describe, expect, it } from 'vitest';
import { addHongKongWorkingDays, BusinessCalendar, getHongKongCalendar } from './business-calendar.ts';

/** An instant written in Hong Kong time (UTC+8, no daylight saving since 1979). */
const hkt = (localDateTime: string) => new Date(`${localDateTime}+08:00`);

describe('Hong Kong working days', () => {
  it('skips the whole Lunar New Year 2027 break for a submission the day before it', () => {
    // Fri 5 Feb 2027; Sat 6 (1st day), Sun 7, Mon 8 (3rd day), Tue 9 (4th day, for the 2nd day falling on Sunday).
    expect(addHongKongWorkingDays(hkt('2027-02-05T10:30:00'), 1)).toEqual(hkt('2027-02-10T10:30:00'));
    expect(addHongKongWorkingDays(hkt('2027-02-05T10:30:00'), 2)).toEqual(hkt('2027-02-11T10:30:00'));
  });

  it('skips Christmas Day and the first weekday after it', () => {
    // Thu 24 Dec 2026 → Fri 25 and Sat 26 are holidays, Sun 27 → Mon 28.
    expect(addHongKongWorkingDays(hkt('2026-12-24T15:00:00'), 1)).toEqual(hkt('2026-12-28T15:00:00'));
    // Fri 24 Dec 2027 → Sat 25, Sun 26, Mon 27 (first weekday after Christmas) → Tue 28.
    expect(addHongKongWorkingDays(hkt('2027-12-24T09:00:00'), 1)).toEqual(hkt('2027-12-28T09:00:00'));
  });

  it('moves a Saturday submission to Monday, and Friday to Monday', () => {
    expect(addHongKongWorkingDays(hkt('2026-11-28T11:00:00'), 1)).toEqual(hkt('2026-11-30T11:00:00'));
    expect(addHongKongWorkingDays(hkt('2026-11-27T18:00:00'), 1)).toEqual(hkt('2026-11-30T18:00:00'));
  });

  it('counts days in Hong Kong, not UTC: 20:00 UTC on Friday is already Saturday in Hong Kong', () => {
    // Sat 28 Nov 04:00 HKT + 1 → Mon 30 Nov 04:00 HKT = Sun 29 Nov 20:00 UTC (a UTC count would give Tuesday in Hong Kong).
    expect(addHongKongWorkingDays(new Date('2026-11-27T20:00:00Z'), 1)).toEqual(new Date('2026-11-29T20:00:00Z'));
  });

  it('counts 7 working days ahead across a holiday, and back again', () => {
    // Mon 21 Sep 2026 + 7: 22–25, 28–30 (Sat 26 Sep is the day after Mid-Autumn, a Saturday anyway) → Wed 30 Sep.
    expect(addHongKongWorkingDays(hkt('2026-09-21T09:00:00'), 7)).toEqual(hkt('2026-09-30T09:00:00'));
    // Wed 30 Sep + 2: Thu 1 Oct is National Day → Fri 2, Mon 5.
    expect(addHongKongWorkingDays(hkt('2026-09-30T09:00:00'), 2)).toEqual(hkt('2026-10-05T09:00:00'));
    expect(addHongKongWorkingDays(hkt('2026-10-05T09:00:00'), -2)).toEqual(hkt('2026-09-30T09:00:00'));
  });

  it('knows which days are working days', () => {
    const calendar = getHongKongCalendar();
    expect(calendar.isWorkingDay(hkt('2027-02-09T12:00:00'))).toBe(false);
    expect(calendar.isWorkingDay(hkt('2027-02-10T00:00:00'))).toBe(true);
    expect(calendar.isHolidayDate('2026-12-25')).toBe(true);
  });

  it('refuses a fractional or unbounded count', () => {
    const calendar = new BusinessCalendar();
    expect(() => calendar.addWorkingDays(new Date(), 1.5)).toThrow(RangeError);
    expect(() => calendar.addWorkingDays(new Date(), 1_000_000)).toThrow(RangeError);
    expect(calendar.addWorkingDays(hkt('2026-11-28T11:00:00'), 0)).toEqual(hkt('2026-11-28T11:00:00'));
  });
});
