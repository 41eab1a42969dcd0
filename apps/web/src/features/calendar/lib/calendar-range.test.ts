import type { CalendarEvent } from '@meridian/contracts/calendar';
import { describe, expect, it } from 'vitest';
import { groupByMonth, hongKongDay, hongKongTime, monthLabel, pageRange, webcalUrl } from './calendar-range.ts';

const event = (day: string, uid: string): CalendarEvent => ({
  uid,
  kind: 'FUND_PAYOUT',
  day,
  isAllDay: true,
  startsAt: null,
  title: uid,
  description: '',
  link: '/my/account/fund',
});

describe('calendar page helpers', () => {
  it('counts days and months in Hong Kong', () => {
    // 20:00 UTC on 31 December is already 1 January in Hong Kong.
    expect(hongKongDay(new Date('2026-12-31T20:00:00Z'))).toBe('2027-01-01');
    expect(pageRange(new Date('2026-12-31T20:00:00Z'))).toEqual({ from: '2027-01-01', to: '2027-12-31' });
    expect(pageRange(new Date('2026-11-26T13:00:00Z'), -1)).toEqual({ from: '2026-10-01', to: '2027-09-30' });
    expect(hongKongTime('2027-01-31T17:00:00Z', 'en-US')).toBe('01:00');
  });

  it('groups events by month in order and names months in both languages', () => {
    const groups = groupByMonth([event('2026-12-01', 'a'), event('2026-12-30', 'b'), event('2027-01-04', 'c')]);
    expect(groups.map((group) => [group.month, group.events.length])).toEqual([
      ['2026-12', 2],
      ['2027-01', 1],
    ]);
    expect(monthLabel('2026-12', 'en-US')).toBe('December 2026');
    expect(monthLabel('2026-12', 'zh-HK')).toBe('2026年12月');
    expect(webcalUrl('https://meridian.example/api/calendar/feed/x.ics')).toBe(
      'webcal://meridian.example/api/calendar/feed/x.ics',
    );
  });
});
