import { z } from 'zod';
import { defineEndpoint } from './endpoint.ts';

/**
 * The user's calendar (docs/calendar.md): one list of the dates of the user's
 * products — fixed-fund maturities, the current fund's monthly payout days, loan repayment dates and
 * the end of their overdue grace, the BTC trusts' inactivity reminders and deadlines, and the
 * identity renewals (a new tax form due after a change of country, the qualified-investor status
 * ending) — as a page and as a subscribable ICS feed behind a secret URL the user can rotate.
 *
 * Days are Hong Kong calendar days (`YYYY-MM-DD`, the business time zone; docs/calendar.md): an all-day
 * event is that day wherever the reader is; a timed event carries its instant (`startsAt`, ISO UTC).
 */

/** The longest range one `calendar/events` call may ask for, in days (both ends included). */
export const CALENDAR_RANGE_DAYS_MAX = 400;

/** What the ICS feed covers around the day it is read: this many days back … */
export const CALENDAR_FEED_PAST_DAYS = 31;
/** … and this many days ahead. */
export const CALENDAR_FEED_FUTURE_DAYS = 366;

/** The kinds of event, each from one module. */
export const CALENDAR_EVENT_KINDS = [
  'FUND_MATURITY',
  'FUND_PAYOUT',
  'LOAN_REPAYMENT',
  'LOAN_GRACE_END',
  'TRUST_REMINDER',
  'TRUST_DEADLINE',
  'TAX_FORM_DUE',
  'QUALIFIED_RENEWAL',
] as const;
export const calendarEventKindSchema = z.enum(CALENDAR_EVENT_KINDS);
export type CalendarEventKind = z.infer<typeof calendarEventKindSchema>;

/**
 * One event. `uid` is stable (the same date of the same record keeps it, so a subscribed calendar
 * updates the event instead of adding a copy). `day`: the Hong Kong day it falls on (`YYYY-MM-DD`).
 * `isAllDay` false: `startsAt` is the instant (ISO UTC). `title` and `description` are in the
 * request's language. `link` is the web path of the record (fund, loan, trust or identity page).
 */
export const calendarEventSchema = z.object({
  uid: z.string(),
  kind: calendarEventKindSchema,
  day: z.string(),
  isAllDay: z.boolean(),
  startsAt: z.string().nullable(),
  title: z.string(),
  description: z.string(),
  link: z.string(),
});
export type CalendarEvent = z.infer<typeof calendarEventSchema>;

const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
/** Whether `day` is a real calendar day `YYYY-MM-DD` (2026-02-30 is not). */
function isCalendarDay(day: string): boolean {
  if (!DAY_PATTERN.test(day)) return false;
  const parsed = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(day);
}
const daySchema = z.string().max(10, { abort: true }).refine(isCalendarDay, { error: 'validation.date' });

/** Whole days from `from` to `to` (UTC dates, `YYYY-MM-DD`). */
export function calendarDaysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/**
 * `GET calendar/events?from&to`: Hong Kong days, both included; `to` not before `from` and at most
 * `CALENDAR_RANGE_DAYS_MAX` days in all (120 naming `to` otherwise).
 */
export const calendarRangeQuerySchema = z.object({ from: daySchema, to: daySchema }).superRefine((query, context) => {
  if (!isCalendarDay(query.from) || !isCalendarDay(query.to)) return;
  const span = calendarDaysBetween(query.from, query.to);
  if (span < 0) context.addIssue({ code: 'custom', path: ['to'], message: 'validation.calendarRangeOrder' });
  else if (span + 1 > CALENDAR_RANGE_DAYS_MAX)
    context.addIssue({ code: 'custom', path: ['to'], message: 'validation.calendarRangeTooLong' });
});
export type CalendarRangeQuery = z.infer<typeof calendarRangeQuerySchema>;

/** `GET calendar/events`: the range asked for and its events, by day then time. */
export const calendarEventsSchema = z.object({
  from: z.string(),
  to: z.string(),
  events: z.array(calendarEventSchema),
});
export type CalendarEvents = z.infer<typeof calendarEventsSchema>;

/** The secret feed's address (absolute) and when it was made (the last rotation). */
export const calendarFeedSchema = z.object({ url: z.string(), createdAt: z.string() });
export type CalendarFeed = z.infer<typeof calendarFeedSchema>;

/** A feed token: 32 random-looking bytes, base64url without padding (43 characters). */
export const CALENDAR_FEED_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** The feed's path parameter: `<token>.ics`. */
export const calendarFeedParamsSchema = z.object({
  file: z
    .string()
    .max(47, { abort: true })
    .regex(/^[A-Za-z0-9_-]{43}\.ics$/, { error: 'validation.calendarFeedFile' }),
});

/** The calendar calls (module `calendar`). */
export const calendarEndpoints = {
  events: defineEndpoint({
    method: 'GET',
    path: '/calendar/events',
    tag: 'calendar',
    summary: "The signed-in user's dates between two Hong Kong days (both included), titles in the User-Lang language",
    auth: 'user',
    query: calendarRangeQuerySchema,
    content: calendarEventsSchema,
  }),
  getFeed: defineEndpoint({
    method: 'GET',
    path: '/calendar/feed',
    tag: 'calendar',
    summary: "The user's secret ICS feed address (made on first call)",
    auth: 'user',
    content: calendarFeedSchema,
  }),
  rotateFeed: defineEndpoint({
    method: 'POST',
    path: '/calendar/feed/rotate',
    tag: 'calendar',
    summary: 'A new secret feed address; the old one answers 404 from now on',
    auth: 'user',
    content: calendarFeedSchema,
  }),
  ics: defineEndpoint({
    method: 'GET',
    path: '/calendar/feed/:file',
    tag: 'calendar',
    summary:
      "The ICS feed (text/calendar) of the token in the path, no session; titles in the owner's language. 404 for an unknown or rotated token",
    auth: 'none',
    params: calendarFeedParamsSchema,
    content: z.string(),
    isBareContent: true,
    codes: ['NOT_FOUND'],
  }),
};
