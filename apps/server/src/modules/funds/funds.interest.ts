import { sql, type SQL } from 'drizzle-orm';
import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc.js';
import type { BusinessCalendar } from '../../platform/calendar/business-calendar.ts';

dayjs.extend(utc);

/**
 * The interest rules of the funds (docs/funds.md "Interest"; decision
 * docs/decisions/0008-savings-accrual-precision.md), as pure functions and the SQL the jobs run.
 *
 * Daily interest of a holding for one Hong Kong day: `shares × rate / 365`, with the rate tiered —
 * each tier's rate applies to the part of the shares inside the tier — summed over the tiers and
 * rounded down ONCE to 10⁻⁸ USD (an "e8" unit: 1 cent = 1,000,000 e8), far below the cent. Every
 * year counts 365 days, leap years too (a leap year pays 366/365 of the rate). Rates are basis points
 * per year, so in integers:
 * `interest_e8 = floor(Σ tier_part_minor × annual_rate_bps × 1,000,000 / 3,650,000)`.
 *
 * The holding carries what is not yet a whole cent (`interest_carry_e8`, always < 1 cent) from day
 * to day: each day the whole cents of carry + interest are credited (`creditDayE8`) — into the
 * holding's unpaid interest and the ledger, whose unit is the cent — and the rest is carried. So the
 * cents credited up to any day are floor(Σ daily interest in e8 / 1,000,000): a holding is short of
 * its exact interest by less than one cent plus 10⁻⁸ USD a day in total (0.0100037 USD over a
 * year), not by up to a cent a day (amounts owed to a user round down, docs/architecture.md "Money": once at
 * 10⁻⁸ a day, and at the cent only on the running total).
 */

/** 10 000 basis points × 365 days: the divisor of the daily interest in cents × bps. */
export const DAILY_RATE_DIVISOR = 3_650_000n;

/** Accrual units (10⁻⁸ USD, "e8") per USD cent. */
export const E8_PER_CENT = 1_000_000n;

/** E8_PER_CENT / DAILY_RATE_DIVISOR reduced (1,000,000 / 3,650,000 = 20 / 73): e8 per cent·bps a day. */
const DAILY_E8_NUMERATOR = 20n;
const DAILY_E8_DENOMINATOR = 73n;

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
 * Interest of one holding for one day in 10⁻⁸ USD (e8): tiers summed, then rounded down (floor) once.
 * 1,234,567 cents at 365 bps → floor(1,234,567 × 365 × 1,000,000 / 3,650,000) = 123,456,700 e8 =
 * 1.234567 USD; 9,900 cents (99.00) → 990,000 e8 = 0.0099 USD.
 */
export function dailyInterestE8(sharesMinor: bigint, tiers: readonly RateTier[]): bigint {
  if (sharesMinor <= 0n) return 0n;
  const parts = tierParts(sharesMinor, tiers);
  const weighted = parts.reduce((sum, part, index) => sum + part * BigInt(tiers[index]!.annualRateBps), 0n);
  return (weighted * E8_PER_CENT) / DAILY_RATE_DIVISOR; // bigint division truncates; non-negative: rounds down
}

/** What one day's accrual credits a holding: whole cents, and the sub-cent part carried to the next day. */
export interface DayCredit {
  /** Whole USD cents credited to the holding's unpaid interest (and the ledger) for the day. */
  creditedMinor: bigint;
  /** The holding's carry after the day, 10⁻⁸ USD, 0 ≤ carry < 1,000,000. */
  carryE8: bigint;
}

/**
 * Add a day's interest `interestE8` to the carry `carryE8` (both 10⁻⁸ USD, non-negative): the whole
 * cents are credited, the rest (< 1 cent) carried. 99.00 at 3.65 %: carry 0 + 990,000 → 0 cents,
 * carry 990,000; the next day 1,980,000 → 1 cent, carry 980,000.
 */
export function creditDayE8(carryE8: bigint, interestE8: bigint): DayCredit {
  const total = carryE8 + interestE8;
  return { creditedMinor: total / E8_PER_CENT, carryE8: total % E8_PER_CENT };
}

/**
 * The SQL of `dailyInterestE8` over the `bigint` expression `shares` (cents) for the tiers of one
 * product, in `bigint` arithmetic (a tenth of the cost of `numeric` per row in the accrual; an
 * overflow is an error, never a wrong amount, and needs shares × bps × 20 above 9.2 × 10¹⁸, i.e. a
 * holding of trillions of dollars): `(Σ GREATEST(LEAST(shares, upper) − lower, 0) × bps) × 20 / 73`
 * — 20 / 73 is 1,000,000 / 3,650,000 reduced, so the quotient is the same, and `bigint` division
 * truncates a non-negative operand, i.e. rounds down like the TypeScript.
 */
export function dailyInterestE8Sql(shares: SQL, tiers: readonly RateTier[]): SQL {
  if (tiers.length === 0) return sql`0::bigint`;
  let lower = 0n;
  const terms = tiers.map((tier) => {
    const top = tier.upToMinor === null ? shares : sql`LEAST(${shares}, ${tier.upToMinor.toString()}::bigint)`;
    const term = sql`GREATEST(${top} - ${lower.toString()}::bigint, 0::bigint) * ${tier.annualRateBps}::bigint`;
    lower = tier.upToMinor ?? lower;
    return term;
  });
  return sql`((${sql.join(terms, sql` + `)}) * ${DAILY_E8_NUMERATOR.toString()}::bigint / ${DAILY_E8_DENOMINATOR.toString()}::bigint)`;
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
