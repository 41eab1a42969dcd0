import type { CalendarEvent } from '@meridian/contracts/calendar';

/** The Hong Kong time zone: the calendar's days are Hong Kong days. */
export const HONG_KONG_TIME_ZONE = 'Asia/Hong_Kong';

/** Days the page shows from the first of the current month (inside the server's 400-day limit). */
export const PAGE_RANGE_DAYS = 365;

/** The Hong Kong day of an instant, `YYYY-MM-DD`. */
export function hongKongDay(instant: Date): string {
  // en-CA formats as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: HONG_KONG_TIME_ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(instant);
}

/** `day` (`YYYY-MM-DD`) plus `days` calendar days. */
export function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/**
 * The range the page asks for, from `monthOffset` months after the Hong Kong month of `now`:
 * the first day of that month and `PAGE_RANGE_DAYS − 1` days later.
 */
export function pageRange(now: Date, monthOffset = 0): { from: string; to: string } {
  const [year, month] = hongKongDay(now).split('-').map(Number) as [number, number];
  const first = new Date(Date.UTC(year, month - 1 + monthOffset, 1)).toISOString().slice(0, 10);
  return { from: first, to: addDays(first, PAGE_RANGE_DAYS - 1) };
}

/** Events grouped by month (`YYYY-MM`), in the server's order (by day, then time). */
export function groupByMonth(events: readonly CalendarEvent[]): { month: string; events: CalendarEvent[] }[] {
  const groups: { month: string; events: CalendarEvent[] }[] = [];
  for (const event of events) {
    const month = event.day.slice(0, 7);
    const last = groups.at(-1);
    if (last?.month === month) last.events.push(event);
    else groups.push({ month, events: [event] });
  }
  return groups;
}

/** A month `YYYY-MM` as its name in `locale` ("December 2026", "2026年12月"; short: "Dec 2026"). */
export function monthLabel(month: string, locale: string, width: 'long' | 'short' = 'long'): string {
  return new Intl.DateTimeFormat(locale, { year: 'numeric', month: width, timeZone: 'UTC' }).format(
    new Date(`${month}-01T00:00:00Z`),
  );
}

/** A day `YYYY-MM-DD` as its day of the month and short weekday in `locale`. */
export function dayLabel(day: string, locale: string): { date: string; weekday: string } {
  const instant = new Date(`${day}T00:00:00Z`);
  return {
    date: String(instant.getUTCDate()),
    weekday: new Intl.DateTimeFormat(locale, { weekday: 'short', timeZone: 'UTC' }).format(instant),
  };
}

/** A timed event's time in Hong Kong, `HH:mm`. */
export function hongKongTime(iso: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, {
    hour: '2-digit',
    minute: '2-digit',
    hour12: false,
    timeZone: HONG_KONG_TIME_ZONE,
  }).format(new Date(iso));
}

/** The `webcal:` form of a feed address, which opens the subscribe dialog of calendar apps. */
export function webcalUrl(url: string): string {
  return url.replace(/^https?:/, 'webcal:');
}
