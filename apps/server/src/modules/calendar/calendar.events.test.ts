import { describe, expect, it } from 'vitest';
import { getHongKongCalendar } from '../../platform/calendar/business-calendar.ts';
import { payoutDaysBetween } from '../funds/funds.service.ts';
import { hongKongDay } from '../../platform/calendar/business-calendar.ts';
import { buildCalendarEvents, type CalendarSources, toIcs } from './calendar.events.ts';

const calendar = getHongKongCalendar();

/** A user with one of everything: a fixed order, current shares, a loan, a trust, a tax form due, qualified status. */
function sources(): CalendarSources {
  return {
    userTag: 'abc123def456',
    funds: {
      maturities: [
        {
          holdingId: 7,
          productId: 'FIXED_90D_20261201',
          nameEn: '90-day Fixed Fund',
          nameZhHk: '90 日定期基金',
          principal: '5000.00',
          interestDate: '2026-09-02',
          maturityDate: '2026-12-01',
        },
      ],
      payoutDays: payoutDaysBetween('2026-12-01', '2027-01-31', calendar),
    },
    loans: [
      {
        orderId: '42',
        loanCoin: 'USDT',
        outstandingPrincipal: '1000.000000',
        repaymentDate: '2026-12-30',
        graceEndDate: '2027-01-02',
        graceDays: 3,
      },
    ],
    trusts: [
      {
        trustId: 9,
        name: 'Family',
        // 01:00 on 1 February in Hong Kong is still 31 January in UTC.
        deadlineAt: new Date('2027-01-31T17:00:00Z'),
        reminders: [
          { daysBefore: 30, at: new Date('2027-01-01T17:00:00Z') },
          { daysBefore: 14, at: new Date('2027-01-17T17:00:00Z') },
          { daysBefore: 3, at: new Date('2027-01-28T17:00:00Z') },
        ],
      },
    ],
    taxFormDueAt: new Date('2026-12-15T02:00:00Z'),
    qualifiedUntil: null,
  };
}

describe('payout days: the first Hong Kong business day of each month (the funds rule)', () => {
  it('skips weekends and public holidays, and keeps only days inside the range', () => {
    // 1 Jan 2027 is a holiday (Friday), 2–3 Jan a weekend → Monday 4 Jan; 1 Feb 2026 is a Sunday → Monday 2 Feb.
    expect(payoutDaysBetween('2026-12-01', '2027-01-31', calendar)).toEqual(['2026-12-01', '2027-01-04']);
    expect(payoutDaysBetween('2026-02-01', '2026-03-31', calendar)).toEqual(['2026-02-02', '2026-03-02']);
    // A range starting after the month's payout day leaves that month out.
    expect(payoutDaysBetween('2027-01-05', '2027-02-28', calendar)).toEqual(['2027-02-01']);
    expect(payoutDaysBetween('2026-12-02', '2026-12-31', calendar)).toEqual([]);
  });
});

describe('calendar events', () => {
  it('dates all-day events on their Hong Kong day and timed events on the Hong Kong day of their instant', () => {
    const events = buildCalendarEvents(sources(), { fromDay: '2026-12-01', toDay: '2027-02-28' }, 'en-US');
    const byUid = new Map(events.map((event) => [event.uid, event]));
    expect(byUid.get('fund-maturity-7@calendar.meridian')).toMatchObject({
      day: '2026-12-01',
      isAllDay: true,
      startsAt: null,
      title: 'Fixed fund matures: 90-day Fixed Fund',
      link: '/my/account/fund',
    });
    expect(byUid.get('fund-payout-2027-01-abc123def456@calendar.meridian')?.day).toBe('2027-01-04');
    expect(byUid.get('loan-repayment-42@calendar.meridian')).toMatchObject({ day: '2026-12-30', isAllDay: true });
    expect(byUid.get('loan-grace-end-42@calendar.meridian')).toMatchObject({ day: '2027-01-02', isAllDay: true });
    const deadline = byUid.get('trust-deadline-9@calendar.meridian')!;
    expect(deadline).toMatchObject({ day: '2027-02-01', isAllDay: false, startsAt: '2027-01-31T17:00:00.000Z' });
    expect(hongKongDay(new Date('2027-01-31T15:59:59Z'))).toBe('2027-01-31');
    expect(byUid.get('trust-reminder-9-30@calendar.meridian')?.title).toBe(
      'Sign in to keep trust “Family” active (30 days left)',
    );
    expect(byUid.get('trust-reminder-9-30@calendar.meridian')?.description).toContain('2027-02-01 01:00');
    expect(byUid.get('tax-form-due-2026-12-15-abc123def456@calendar.meridian')?.link).toBe('/identity/tax');
    // Sorted by day; on one day all-day events come first.
    expect(events.map((event) => event.day)).toEqual([...events.map((event) => event.day)].sort());
    expect(events[0]!.kind).toBe('FUND_MATURITY');
    expect(events.length).toBe(10);
  });

  it('keeps only the events of the range, and the same UIDs in another range and language', () => {
    const december = buildCalendarEvents(sources(), { fromDay: '2026-12-01', toDay: '2026-12-31' }, 'zh-HK');
    expect(december.map((event) => event.kind)).toEqual([
      'FUND_MATURITY',
      'FUND_PAYOUT',
      'TAX_FORM_DUE',
      'LOAN_REPAYMENT',
    ]);
    expect(december[0]!.title).toBe('定期理財到期：90 日定期基金');
    expect(december[3]!.title).toBe('貸款還款日：1,000.00 USDT（訂單 42）');
    const all = buildCalendarEvents(sources(), { fromDay: '2026-01-01', toDay: '2027-12-31' }, 'en-US');
    const allUids = new Set(all.map((event) => event.uid));
    for (const event of december) expect(allUids.has(event.uid)).toBe(true);
    // The trust's deadline falls on 1 February in Hong Kong: a range ending on 31 January leaves it out.
    const january = buildCalendarEvents(sources(), { fromDay: '2027-01-01', toDay: '2027-01-31' }, 'en-US');
    expect(january.some((event) => event.kind === 'TRUST_DEADLINE')).toBe(false);
  });

  it('writes all-day events as dates and timed events as UTC instants in the ICS text', () => {
    const events = buildCalendarEvents(sources(), { fromDay: '2026-12-01', toDay: '2027-02-28' }, 'zh-HK');
    const text = toIcs(events, 'zh-HK', 'https://meridian.example/');
    expect(text.startsWith('BEGIN:VCALENDAR')).toBe(true);
    expect(text.match(/BEGIN:VEVENT/g)).toHaveLength(10);
    const unfolded = text.replace(/\r\n[ \t]/g, '');
    expect(unfolded).toContain('UID:fund-maturity-7@calendar.meridian');
    expect(unfolded).toContain('DTSTART;VALUE=DATE:20261201');
    expect(unfolded).toContain('DTEND;VALUE=DATE:20261202');
    expect(unfolded).toContain('DTSTART:20270131T170000Z');
    expect(unfolded).toContain('SUMMARY:定期理財到期：90 日定期基金');
    expect(unfolded).toContain('URL:https://meridian.example/product/trust/9');
    expect(unfolded).toContain('X-WR-CALNAME:Meridian 日曆');
  });
});
