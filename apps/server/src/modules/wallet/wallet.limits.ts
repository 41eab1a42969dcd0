import { type AssetCode, parseAmountMinor, toDecimalString } from '@meridian/contracts/money';
import { formatMoney } from '@meridian/contracts/money-format';
import type { OpsWithdrawalLimit, WithdrawLimitsContent, WithdrawLimitWindow } from '@meridian/contracts/wallet';
import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';
import Decimal from 'decimal.js';
import { and, asc, eq, gte, notInArray, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../platform/db/client.ts';
import { DomainError } from '../../platform/http/errors.ts';
import { withdrawalLimitChanges, withdrawalLimits, withdrawals } from './wallet.tables.ts';

dayjs.extend(utc);
dayjs.extend(timezone);

/**
 * Withdrawal limits by identity level. USD amounts are
 * held as `bigint` cents (minor units of the `USD` asset) in code and as `numeric(38,2)` decimal
 * strings in the tables; never as JS numbers.
 */

/** The calendar month of the monthly limit is counted in Hong Kong time. */
export const LIMIT_TIME_ZONE = 'Asia/Hong_Kong';
/** Length of the rolling window. */
export const LIMIT_WINDOW_24H_MS = 24 * 60 * 60 * 1000;

/** One level's limits in USD cents. */
export interface LevelLimitsCents {
  usdPer24hCents: bigint;
  usdPerMonthCents: bigint;
}

/**
 * The default withdrawal limits per identity level (docs/kyc.md "Withdrawal limits"), seeded at start: level 1 USD
 * 20,000 per 24 h and 200,000 per month; levels 2 and 3 USD 200,000 and 2,000,000. Level 0 has none (the KYC gate
 * refuses it anyway).
 */
export const DEFAULT_WITHDRAWAL_LIMITS: Readonly<Record<1 | 2 | 3, { usdPer24h: string; usdPerMonth: string }>> = {
  1: { usdPer24h: '20000.00', usdPerMonth: '200000.00' },
  2: { usdPer24h: '200000.00', usdPerMonth: '2000000.00' },
  3: { usdPer24h: '200000.00', usdPerMonth: '2000000.00' },
};

/** Statuses that no longer count against the limits: 3 failure, 4 cancel. */
const NOT_COUNTED_STATUSES = [3, 4];
/** Lock namespace of the per-user withdrawal lock (first key of a two-key advisory lock). */
const WITHDRAW_LOCK_NAMESPACE = 0x5744; // "WD"

const cents = (text: string): bigint => parseAmountMinor(text, 'USD');
const usd = (centsValue: bigint): string => toDecimalString(centsValue, 'USD');

/** Insert the default limits of levels 1–3 where no row exists (idempotent; edited rows stay). */
export async function seedWithdrawalLimits(db: DbOrTx): Promise<void> {
  await db
    .insert(withdrawalLimits)
    .values(
      Object.entries(DEFAULT_WITHDRAWAL_LIMITS).map(([level, limits]) => ({ kycLevel: Number(level), ...limits })),
    )
    .onConflictDoNothing();
}

/** Start of the calendar month in Hong Kong that holds `now`, as an instant. */
export function monthStartHongKong(now: Date): Date {
  return dayjs(now).tz(LIMIT_TIME_ZONE).startOf('month').toDate();
}

/**
 * USD value of a withdrawal amount at `usdPerCoin` (an exact decimal string), in cents rounded up:
 * the limits never under-count what leaves.
 */
export function usdValueCents(amountMinor: bigint, asset: AssetCode, usdPerCoin: string): bigint {
  const value = new Decimal(toDecimalString(amountMinor, asset)).mul(usdPerCoin).toDecimalPlaces(2, Decimal.ROUND_UP);
  return cents(value.toFixed(2));
}

/** A level's limits: its row, else the default (levels 1–3), else none (level 0: 0 and 0). */
export async function limitsOfLevel(db: DbOrTx, level: number): Promise<LevelLimitsCents> {
  const [row] = await db.select().from(withdrawalLimits).where(eq(withdrawalLimits.kycLevel, level));
  const fallback = DEFAULT_WITHDRAWAL_LIMITS[level as 1 | 2 | 3] as
    { usdPer24h: string; usdPerMonth: string } | undefined;
  const source = row ?? fallback;
  if (!source) return { usdPer24hCents: 0n, usdPerMonthCents: 0n };
  return { usdPer24hCents: cents(source.usdPer24h), usdPerMonthCents: cents(source.usdPerMonth) };
}

/**
 * USD cents of the user's withdrawals that still count (not failed or cancelled), in the rolling
 * 24 hours before `now` and since the start of the Hong Kong month; one indexed query.
 */
export async function usedCents(db: DbOrTx, userId: string, now: Date): Promise<{ per24h: bigint; perMonth: bigint }> {
  const since24h = new Date(now.getTime() - LIMIT_WINDOW_24H_MS);
  const monthStart = monthStartHongKong(now);
  const earliest = since24h < monthStart ? since24h : monthStart;
  const [row] = await db
    .select({
      per24h: sql<string>`COALESCE(SUM(${withdrawals.usdValue}) FILTER (WHERE ${withdrawals.createdAt} > ${since24h.toISOString()}), 0)::text`,
      perMonth: sql<string>`COALESCE(SUM(${withdrawals.usdValue}) FILTER (WHERE ${withdrawals.createdAt} >= ${monthStart.toISOString()}), 0)::text`,
    })
    .from(withdrawals)
    .where(
      and(
        eq(withdrawals.userId, userId),
        notInArray(withdrawals.status, NOT_COUNTED_STATUSES),
        gte(withdrawals.createdAt, earliest),
      ),
    );
  return { per24h: cents(row?.per24h ?? '0'), perMonth: cents(row?.perMonth ?? '0') };
}

/** Limit, used and left of both windows, in cents. */
export interface LimitUsage {
  level: number;
  per24h: { limit: bigint; used: bigint; left: bigint };
  perMonth: { limit: bigint; used: bigint; left: bigint };
}

/** The user's limits and usage at `now` (level from the identity module). */
export async function limitUsage(db: DbOrTx, userId: string, level: number, now: Date): Promise<LimitUsage> {
  const limits = await limitsOfLevel(db, level);
  const used = await usedCents(db, userId, now);
  const window = (limit: bigint, usedInWindow: bigint) => ({
    limit,
    used: usedInWindow,
    left: limit > usedInWindow ? limit - usedInWindow : 0n,
  });
  return {
    level,
    per24h: window(limits.usdPer24hCents, used.per24h),
    perMonth: window(limits.usdPerMonthCents, used.perMonth),
  };
}

/** `GET wallet/withdraw/limits` content: decimal strings with 2 decimals. */
export function toLimitsContent(usage: LimitUsage): WithdrawLimitsContent {
  const window = (w: LimitUsage['per24h']) => ({ limitUsd: usd(w.limit), usedUsd: usd(w.used), leftUsd: usd(w.left) });
  return { level: usage.level, per24h: window(usage.per24h), perMonth: window(usage.perMonth) };
}

/**
 * Refuse a withdrawal worth `valueCents` that is more than what is left of either window. The
 * window named is the one with less left. Content: `{ fields: [{ field: 'amount', … }], window,
 * leftUsd }` (the route words the field message in the caller's language).
 * @throws DomainError WITHDRAW_LIMIT_EXCEEDED (150, 422) with params `leftUsd` ("1,234.56"),
 *   `windowEn`, `windowZh`.
 */
export function assertWithinLimits(usage: LimitUsage, valueCents: bigint): void {
  const leftCents = usage.per24h.left < usage.perMonth.left ? usage.per24h.left : usage.perMonth.left;
  if (valueCents <= leftCents) return;
  const window: WithdrawLimitWindow = usage.per24h.left <= usage.perMonth.left ? '24h' : 'month';
  throw new DomainError(
    'WITHDRAW_LIMIT_EXCEEDED',
    {
      leftUsd: formatMoney(leftCents, 'USD', { unit: 'none', rounding: 'down' }),
      windowEn: window === '24h' ? 'in the next 24 hours' : 'this month',
      windowZh: window === '24h' ? '未來 24 小時內' : '本月',
    },
    { window, leftUsd: usd(leftCents) },
  );
}

/**
 * Serialise the withdrawals of one user: a transaction-scoped advisory lock, so that a second
 * withdrawal of the same user waits until the first commits and then counts it (READ COMMITTED: its
 * next statement sees the committed row). Two users never wait for each other.
 */
export async function lockUserWithdrawals(tx: DbOrTx, userId: string): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(${WITHDRAW_LOCK_NAMESPACE}, hashtext(${userId}))`);
}

/** Every level's limits, levels ascending (operators). */
export async function listLimits(db: DbOrTx): Promise<OpsWithdrawalLimit[]> {
  const rows = await db.select().from(withdrawalLimits).orderBy(asc(withdrawalLimits.kycLevel));
  return rows.map((row) => ({
    level: row.kycLevel,
    usdPer24h: usd(cents(row.usdPer24h)),
    usdPerMonth: usd(cents(row.usdPerMonth)),
    updatedAt: row.updatedAt?.toISOString() ?? null,
    updatedBy: row.updatedBy,
  }));
}

/**
 * Set one level's limits and record the change (operator, time, old and new values) in the same
 * transaction. The row is locked (`FOR UPDATE`) so that the old values logged are the replaced ones.
 */
export async function setLimits(
  db: Db,
  operatorEmail: string,
  level: number,
  limits: LevelLimitsCents,
  now: Date,
): Promise<OpsWithdrawalLimit> {
  const row = await db.transaction(async (tx) => {
    const [old] = await tx.select().from(withdrawalLimits).where(eq(withdrawalLimits.kycLevel, level)).for('update');
    const values = { usdPer24h: usd(limits.usdPer24hCents), usdPerMonth: usd(limits.usdPerMonthCents) };
    const [row] = await tx
      .insert(withdrawalLimits)
      .values({ kycLevel: level, ...values, updatedAt: now, updatedBy: operatorEmail })
      .onConflictDoUpdate({
        target: withdrawalLimits.kycLevel,
        set: { ...values, updatedAt: now, updatedBy: operatorEmail },
      })
      .returning();
    await tx.insert(withdrawalLimitChanges).values({
      kycLevel: level,
      operatorEmail,
      oldUsdPer24h: old?.usdPer24h ?? null,
      oldUsdPerMonth: old?.usdPerMonth ?? null,
      newUsdPer24h: values.usdPer24h,
      newUsdPerMonth: values.usdPerMonth,
      createdAt: now,
    });
    return row!;
  });
  return {
    level: row.kycLevel,
    usdPer24h: usd(cents(row.usdPer24h)),
    usdPerMonth: usd(cents(row.usdPerMonth)),
    updatedAt: row.updatedAt?.toISOString() ?? null,
    updatedBy: row.updatedBy,
  };
}
