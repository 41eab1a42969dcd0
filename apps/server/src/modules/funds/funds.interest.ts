import { sql, type SQL } from 'drizzle-orm';
import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc.js';
import type { BusinessCalendar } from '../../platform/calendar/business-calendar.ts';

dayjs.extend(utc);

/**
 * The interest rules of the funds (issue 17 "Interest"), as pure functions and the SQL the jobs run.
 *
 * Daily interest of a holding for one Hong Kong day: `shares × rate / 365`, with the rate tiered —
 * each tier's rate applies to the part of the shares inside the tier — summed over the tiers and
 * then ROUNDED DOWN to the USD cent, once per holding per day (amounts owed to a user round down,
 * ARCHITECTURE §4). Every year counts 365 days, leap years too (a leap year pays 366/365 of the
 * rate). Rates are basis points per year, so in integers:
 * `interest_minor = floor(Σ tier_part_minor × annual_rate_bps / 3 650 000)`.
 */

/** 10 000 basis points × 365 days: the divisor of the daily interest in cents × bps. */
export const DAILY_RATE_DIVISOR = 3_650_000n;

/** One tier: `annualRateBps` on the part of a holding up to `upToMinor` (null: no bound). */
export interface RateTier {
  upToMinor: bigint | null;
  annualRateBps: number;
}

/** The part of `sharesMinor` inside each tier, in tier order (sums to `sharesMinor`). */
function tierParts(sharesMinor: bigint, tiers: readonly RateTier[]): bigint[] {
  let lower = 0n;
  return tiers.map((tier) => {
    const upper = tier.upToMinor ?? sharesMinor;
    const top = sharesMinor < upper ? sharesMinor : upper;
    const part = top > lower ? top - lower : 0n;
    lower = tier.upToMinor ?? lower;
    return part;
  });
}

/**
 * Interest of one holding for one day, in USD cents: tiers summed, then rounded down (floor) once.
 * 1,000,000 cents at 365 bps → floor(365,000,000 / 3,650,000) = 100 cents.
 */
export function dailyInterestMinor(sharesMinor: bigint, tiers: readonly RateTier[]): bigint {
  if (sharesMinor <= 0n) return 0n;
  const parts = tierParts(sharesMinor, tiers);
  const weighted = parts.reduce((sum, part, index) => sum + part * BigInt(tiers[index]!.annualRateBps), 0n);
  return weighted / DAILY_RATE_DIVISOR; // bigint division truncates; non-negative, so this rounds down
}

/**
 * The SQL of `dailyInterestMinor` over the column expression `shares` (numeric cents) for the
 * tiers of one product: `div(Σ GREATEST(LEAST(shares, upper) − lower, 0) × bps, 3650000)` —
 * `div` truncates, and the operand is non-negative, so it rounds down like the TypeScript.
 */
export function dailyInterestSql(shares: SQL, tiers: readonly RateTier[]): SQL {
  if (tiers.length === 0) return sql`0::numeric`;
  let lower = 0n;
  const terms = tiers.map((tier) => {
    const top = tier.upToMinor === null ? shares : sql`LEAST(${shares}, ${tier.upToMinor.toString()}::numeric)`;
    const term = sql`GREATEST(${top} - ${lower.toString()}::numeric, 0) * ${tier.annualRateBps}`;
    lower = tier.upToMinor ?? lower;
    return term;
  });
  return sql`div(${sql.join(terms, sql` + `)}, ${DAILY_RATE_DIVISOR.toString()}::numeric)`;
}

/** A Hong Kong calendar day `YYYY-MM-DD` plus `days`. */
export function addDays(day: string, days: number): string {
  return dayjs.utc(day).add(days, 'day').format('YYYY-MM-DD');
}

/** The month `YYYY-MM` of a day. */
export function monthOf(day: string): string {
  return day.slice(0, 7);
}

/** Days from `from` to `to` (positive when `to` is later). */
export function daysBetween(from: string, to: string): number {
  return dayjs.utc(to).diff(dayjs.utc(from), 'day');
}

/**
 * The first Hong Kong business day of `month` (`YYYY-MM`): the first weekday of the month that is
 * not a public holiday (`date-holidays` HK). 2026-02 → 2026-02-02 (1 February 2026 is a Sunday).
 */
export function firstBusinessDay(month: string, calendar: BusinessCalendar): string {
  let day = `${month}-01`;
  for (let step = 0; step < 31; step += 1) {
    const weekday = dayjs.utc(day).day();
    if (weekday !== 0 && weekday !== 6 && !calendar.isHolidayDate(day)) return day;
    day = addDays(day, 1);
  }
  throw new Error(`no business day in ${month}`);
}
