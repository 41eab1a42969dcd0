import { CALENDAR_EVENT_KINDS, type CalendarEvent, type CalendarEventKind } from '@meridian/contracts/calendar';
import { interpolate, type Locale, type LocalizedText } from '@meridian/contracts/locale';
import { formatMoneyOf } from '@meridian/contracts/money-format';
import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';
import { createEvents, type EventAttributes } from 'ics';
import { BUSINESS_TIME_ZONE, hongKongDay } from '../../platform/calendar/business-calendar.ts';
import type { FundCalendarDates } from '../funds/funds.service.ts';
import type { LoanCalendarDates } from '../loans/loans.service.ts';
import type { TrustInactivityDates } from '../trust/trust.service.ts';

dayjs.extend(utc);
dayjs.extend(timezone);

/**
 * Building the user's calendar (docs/calendar.md) from what the other modules answer, as
 * pure functions: the events of a range in one language, and the ICS text of a feed.
 */

/** Everything the calendar reads of one user, from the modules' services. */
export interface CalendarSources {
  /** A short tag of the user (hex), in the UIDs of events that belong to no record. */
  userTag: string;
  funds: FundCalendarDates;
  loans: LoanCalendarDates[];
  trusts: TrustInactivityDates[];
  /** A new tax form is due by then (after a change of country), or null. */
  taxFormDueAt: Date | null;
  /** The qualified-investor status ends then (status Verified), or null. */
  qualifiedUntil: Date | null;
}

/** The domain part of every UID: stable, so a subscribed calendar updates an event in place. */
export const CALENDAR_UID_DOMAIN = 'calendar.meridian';

/** A timed event lasts this long in a calendar app (a point in time has no length). */
export const TIMED_EVENT_MINUTES = 30;

/** Titles and descriptions per kind, both languages; `{name}` placeholders. */
const TEXTS: Record<CalendarEventKind, { title: LocalizedText; description: LocalizedText }> = {
  FUND_MATURITY: {
    title: { 'en-US': 'Fixed fund matures: {name}', 'zh-HK': '定期理財到期：{name}' },
    description: {
      'en-US': 'The principal of {principal} USD and its interest go back to your Current Fund.',
      'zh-HK': '本金 {principal} USD 連同利息將轉回您的活期基金。',
    },
  },
  FUND_PAYOUT: {
    title: { 'en-US': 'Current Fund interest payout', 'zh-HK': '活期基金派息日' },
    description: {
      'en-US': "Last month's interest is paid as Current Fund shares on the first Hong Kong business day of the month.",
      'zh-HK': '上月累計的利息於每月首個香港工作日以活期基金份額派發。',
    },
  },
  LOAN_REPAYMENT: {
    title: {
      'en-US': 'Loan repayment due: {principal} {coin} (order {orderId})',
      'zh-HK': '貸款還款日：{principal} {coin}（訂單 {orderId}）',
    },
    description: {
      'en-US':
        'Repay by the end of this Hong Kong day. After it, overdue interest accrues for up to {grace} days, then the collateral is liquidated.',
      'zh-HK': '請於本香港日結束前還款。逾期後將計收逾期利息，最多 {grace} 日，其後抵押品將被平倉。',
    },
  },
  LOAN_GRACE_END: {
    title: { 'en-US': 'Loan grace period ends (order {orderId})', 'zh-HK': '貸款寬限期結束（訂單 {orderId}）' },
    description: {
      'en-US': 'Last day to repay the overdue loan before its BTC collateral is liquidated.',
      'zh-HK': '逾期貸款在 BTC 抵押品被平倉前的最後還款日。',
    },
  },
  TRUST_REMINDER: {
    title: {
      'en-US': 'Sign in to keep trust “{name}” active ({days} days left)',
      'zh-HK': '請登入以保持信託「{name}」有效（尚餘 {days} 日）',
    },
    description: {
      'en-US':
        'If you do not sign in by {deadline} (Hong Kong time), trust “{name}” passes to its beneficiaries’ claim. Any sign-in moves this date.',
      'zh-HK': '如您未於 {deadline}（香港時間）前登入，信託「{name}」將交由受益人申索。每次登入都會延後此日期。',
    },
  },
  TRUST_DEADLINE: {
    title: { 'en-US': 'Trust “{name}”: inactivity deadline', 'zh-HK': '信託「{name}」：不活躍期限' },
    description: {
      'en-US': 'Without a sign-in before this time, trust “{name}” passes to its beneficiaries’ claim.',
      'zh-HK': '如在此時間前未有登入，信託「{name}」將交由受益人申索。',
    },
  },
  TAX_FORM_DUE: {
    title: { 'en-US': 'New tax form due', 'zh-HK': '須提交新稅務表格' },
    description: {
      'en-US': 'After your change of country, file a new tax form by this time to keep identity level 2.',
      'zh-HK': '由於您的居住國家已變更，請於此時間前提交新的稅務表格，以保留第 2 級身份認證。',
    },
  },
  QUALIFIED_RENEWAL: {
    title: { 'en-US': 'Qualified investor status ends', 'zh-HK': '合格投資者資格到期' },
    description: {
      'en-US': 'Apply again before this time to keep products for professional investors open.',
      'zh-HK': '請於此時間前重新申請，以繼續使用專業投資者產品。',
    },
  },
};

/** An instant as Hong Kong wall-clock text, `YYYY-MM-DD HH:mm`. */
function hongKongTimeOf(instant: Date): string {
  return dayjs(instant).tz(BUSINESS_TIME_ZONE).format('YYYY-MM-DD HH:mm');
}

interface Draft {
  kind: CalendarEventKind;
  /** The record part of the UID (unique within the kind). */
  ref: string;
  /** All-day: the Hong Kong day; timed: the instant. */
  when: string | Date;
  params: Record<string, string | number>;
  link: string;
}

function toEvent(draft: Draft, locale: Locale): CalendarEvent {
  const texts = TEXTS[draft.kind];
  const isAllDay = typeof draft.when === 'string';
  return {
    uid: `${draft.kind.toLowerCase().replaceAll('_', '-')}-${draft.ref}@${CALENDAR_UID_DOMAIN}`,
    kind: draft.kind,
    day: typeof draft.when === 'string' ? draft.when : hongKongDay(draft.when),
    isAllDay,
    startsAt: typeof draft.when === 'string' ? null : draft.when.toISOString(),
    title: interpolate(texts.title[locale], draft.params),
    description: interpolate(texts.description[locale], draft.params),
    link: draft.link,
  };
}

/**
 * The user's events whose Hong Kong day is in `[fromDay, toDay]` (both included), titles and
 * descriptions in `locale`, sorted by day, then all-day before timed, then time, then kind.
 * - all-day (a Hong Kong day): fixed-fund maturity, payout day, loan repayment day, last grace day;
 * - timed (an instant): trust reminders and deadline, tax form due, qualified status end.
 * Links are web paths: the fund account, the loan orders, the trust, the identity step.
 */
export function buildCalendarEvents(
  sources: CalendarSources,
  range: { fromDay: string; toDay: string },
  locale: Locale,
): CalendarEvent[] {
  const drafts: Draft[] = [];
  const fundName = (item: { nameEn: string; nameZhHk: string }) => (locale === 'zh-HK' ? item.nameZhHk : item.nameEn);
  for (const item of sources.funds.maturities)
    drafts.push({
      kind: 'FUND_MATURITY',
      ref: String(item.holdingId),
      when: item.maturityDate,
      params: { name: fundName(item), principal: formatMoneyOf(item.principal, 'USD', { locale, unit: 'none' }) },
      link: '/my/account/fund',
    });
  for (const day of sources.funds.payoutDays)
    drafts.push({
      kind: 'FUND_PAYOUT',
      ref: `${day.slice(0, 7)}-${sources.userTag}`,
      when: day,
      params: {},
      link: '/my/account/fund',
    });
  for (const loan of sources.loans) {
    const params = {
      orderId: loan.orderId,
      principal: formatMoneyOf(loan.outstandingPrincipal, loan.loanCoin, { locale, unit: 'none', rounding: 'up' }),
      coin: loan.loanCoin,
      grace: loan.graceDays,
    };
    const link = '/my/order/loan/history';
    drafts.push({ kind: 'LOAN_REPAYMENT', ref: loan.orderId, when: loan.repaymentDate, params, link });
    if (loan.graceDays > 0)
      drafts.push({ kind: 'LOAN_GRACE_END', ref: loan.orderId, when: loan.graceEndDate, params, link });
  }
  for (const trust of sources.trusts) {
    const params = { name: trust.name, deadline: hongKongTimeOf(trust.deadlineAt) };
    const link = `/product/trust/${trust.trustId}`;
    for (const reminder of trust.reminders)
      drafts.push({
        kind: 'TRUST_REMINDER',
        ref: `${trust.trustId}-${reminder.daysBefore}`,
        when: reminder.at,
        params: { ...params, days: reminder.daysBefore },
        link,
      });
    drafts.push({ kind: 'TRUST_DEADLINE', ref: String(trust.trustId), when: trust.deadlineAt, params, link });
  }
  if (sources.taxFormDueAt)
    drafts.push({
      kind: 'TAX_FORM_DUE',
      ref: `${hongKongDay(sources.taxFormDueAt)}-${sources.userTag}`,
      when: sources.taxFormDueAt,
      params: {},
      link: '/identity/tax',
    });
  if (sources.qualifiedUntil)
    drafts.push({
      kind: 'QUALIFIED_RENEWAL',
      ref: `${hongKongDay(sources.qualifiedUntil)}-${sources.userTag}`,
      when: sources.qualifiedUntil,
      params: {},
      link: '/identity/qualified',
    });
  const kindOrder = (kind: CalendarEventKind) => CALENDAR_EVENT_KINDS.indexOf(kind);
  return drafts
    .map((draft) => toEvent(draft, locale))
    .filter((event) => event.day >= range.fromDay && event.day <= range.toDay)
    .sort(
      (a, b) =>
        a.day.localeCompare(b.day) ||
        Number(b.isAllDay) - Number(a.isAllDay) ||
        (a.startsAt ?? '').localeCompare(b.startsAt ?? '') ||
        kindOrder(a.kind) - kindOrder(b.kind) ||
        a.uid.localeCompare(b.uid),
    );
}

/** Calendar names per language (the feed's X-WR-CALNAME). */
const CALENDAR_NAME: LocalizedText = { 'en-US': 'Meridian', 'zh-HK': 'Meridian 日曆' };

function dayParts(day: string): [number, number, number] {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return [year, month, date];
}

/**
 * The ICS text (RFC 5545, the `ics` package) of `events`: an all-day event is a `VALUE=DATE` start
 * with the next day as end; a timed one starts at its UTC instant and lasts `TIMED_EVENT_MINUTES`.
 * Each keeps its UID; `publicUrl` makes the links absolute.
 * @throws Error when the package refuses an event (a bug: every field is built here).
 */
export function toIcs(events: readonly CalendarEvent[], locale: Locale, publicUrl: string): string {
  const base = publicUrl.replace(/\/+$/, '');
  const attributes: EventAttributes[] = events.map((event) => {
    const common = {
      uid: event.uid,
      title: event.title,
      description: event.description,
      url: `${base}${event.link}`,
      categories: [event.kind],
      status: 'CONFIRMED' as const,
      busyStatus: 'FREE' as const,
    };
    if (event.isAllDay || event.startsAt === null) {
      const next = dayjs.utc(event.day).add(1, 'day').format('YYYY-MM-DD');
      return { ...common, start: dayParts(event.day), end: dayParts(next) };
    }
    return {
      ...common,
      start: Date.parse(event.startsAt),
      startInputType: 'utc' as const,
      startOutputType: 'utc' as const,
      duration: { minutes: TIMED_EVENT_MINUTES },
    };
  });
  const { error, value } = createEvents(attributes, {
    productId: 'meridian/calendar',
    calName: CALENDAR_NAME[locale],
    method: 'PUBLISH',
  });
  if (error || value === null) throw error ?? new Error('ICS generation failed');
  return value;
}
