import { CURRENT_PRODUCT_ID, type FundReceivingAccount } from '@meridian/contracts/funds';
import type { Locale } from '@meridian/contracts/locale';
import { toDecimalString } from '@meridian/contracts/money';
import { and, asc, eq, type SQL, sql } from 'drizzle-orm';
import { type BusinessCalendar, hongKongDay } from '../../platform/calendar/business-calendar.ts';
import type { Db, DbOrTx } from '../../platform/db/client.ts';
import { DomainError } from '../../platform/http/errors.ts';
import type { RateTier } from './funds.interest.ts';
import { fundHoldings, fundProducts, fundRateTiers } from './funds.tables.ts';
import type { Clock } from '../../platform/clock/clock.ts';
import type { BankAccountLookup, FundsIdentity, FundsNotifier, StablecoinPar } from './funds.types.ts';

/** Something that logs like pino. */
export interface FundsLogger {
  info(detail: object, message: string): void;
  warn(detail: object, message: string): void;
}

/** The context every part of the funds service shares (imported only inside the module). */
export interface FundsContext {
  db: Db;
  clock: Clock;
  calendar: BusinessCalendar;
  bankAccounts: BankAccountLookup;
  par: StablecoinPar;
  identity: FundsIdentity;
  notifier: FundsNotifier;
  receivingAccount: FundReceivingAccount;
  log: FundsLogger;
}

export type ProductRow = typeof fundProducts.$inferSelect;
export type HoldingRow = typeof fundHoldings.$inferSelect;

/** USD cents on the wire: "1234.50". */
export function usd(minor: bigint): string {
  return toDecimalString(minor, 'USD');
}

/** A product's name in `locale`. */
export function productName(product: ProductRow, locale: Locale): string {
  return locale === 'zh-HK' ? product.nameZhHk : product.nameEn;
}

/** One product. @throws DomainError NOT_FOUND when there is no active product `productId`. */
export async function loadProduct(
  db: DbOrTx,
  productId: string,
  options: { isOpenOnly: boolean } = { isOpenOnly: true },
): Promise<ProductRow> {
  const [product] = await db
    .select()
    .from(fundProducts)
    .where(and(eq(fundProducts.id, productId), options.isOpenOnly ? eq(fundProducts.isActive, true) : undefined));
  if (!product) throw new DomainError('NOT_FOUND', {}, { field: 'productId' });
  return product;
}

/** Tiers of every product, in tier order, by product id. */
export async function tiersByProduct(db: DbOrTx): Promise<Map<string, RateTier[]>> {
  const rows = await db
    .select()
    .from(fundRateTiers)
    .orderBy(asc(fundRateTiers.productId), asc(fundRateTiers.tierIndex));
  const byProduct = new Map<string, RateTier[]>();
  for (const row of rows) {
    const tiers = byProduct.get(row.productId) ?? [];
    tiers.push({ upToMinor: row.upToMinor, annualRateBps: row.annualRateBps });
    byProduct.set(row.productId, tiers);
  }
  return byProduct;
}

/**
 * The SET clause that moves a holding's shares by `delta` on Hong Kong day `today`, keeping the day
 * columns (see `fund_holdings`): the first change of a day records the shares before it as the
 * day's start and minimum; every change lowers the minimum to the new shares when lower. Every
 * right-hand side reads the row as it was before the update (SQL semantics).
 */
export function holdingDeltaSet(delta: SQL | bigint, today: string) {
  const d = typeof delta === 'bigint' ? sql`${delta.toString()}::numeric` : delta;
  const isNewDay = sql`${fundHoldings.dayStartDate} < ${today}::date`;
  return {
    prevDayDate: sql`CASE WHEN ${isNewDay} THEN ${fundHoldings.dayStartDate} ELSE ${fundHoldings.prevDayDate} END`,
    prevDayMinSharesMinor: sql`CASE WHEN ${isNewDay} THEN ${fundHoldings.dayMinSharesMinor} ELSE ${fundHoldings.prevDayMinSharesMinor} END`,
    dayStartSharesMinor: sql`CASE WHEN ${fundHoldings.dayStartDate} < ${today}::date THEN ${fundHoldings.sharesMinor} ELSE ${fundHoldings.dayStartSharesMinor} END`,
    dayMinSharesMinor: sql`LEAST(CASE WHEN ${fundHoldings.dayStartDate} < ${today}::date THEN ${fundHoldings.sharesMinor} ELSE ${fundHoldings.dayMinSharesMinor} END, ${fundHoldings.sharesMinor} + ${d})`,
    dayStartDate: sql`GREATEST(${fundHoldings.dayStartDate}, ${today}::date)`,
    sharesMinor: sql`${fundHoldings.sharesMinor} + ${d}`,
  };
}

/**
 * Move the user's current holding by `deltaMinor` (created at 0 when missing) at `now` (its Hong Kong day),
 * locking its row. A debit below zero changes nothing and answers null.
 */
export async function moveCurrentHolding(
  tx: DbOrTx,
  userId: string,
  productId: string,
  deltaMinor: bigint,
  now: Date,
): Promise<HoldingRow | null> {
  const today = hongKongDay(now);
  await tx
    .insert(fundHoldings)
    .values({ userId, productId, kind: 'CURRENT', dayStartDate: today, createdAt: now })
    .onConflictDoNothing();
  const [row] = await tx
    .update(fundHoldings)
    .set(holdingDeltaSet(deltaMinor, today))
    .where(
      and(
        eq(fundHoldings.userId, userId),
        eq(fundHoldings.kind, 'CURRENT'),
        sql`${fundHoldings.sharesMinor} + ${deltaMinor.toString()}::numeric >= 0`,
      ),
    )
    .returning();
  return row ?? null;
}

/** Create the user's current holding when missing and lock its row: the lock of the user's fund orders. */
export async function lockCurrentHolding(tx: DbOrTx, userId: string, now: Date): Promise<HoldingRow> {
  await tx
    .insert(fundHoldings)
    .values({ userId, productId: CURRENT_PRODUCT_ID, kind: 'CURRENT', dayStartDate: hongKongDay(now), createdAt: now })
    .onConflictDoNothing();
  const [row] = await tx
    .select()
    .from(fundHoldings)
    .where(and(eq(fundHoldings.userId, userId), eq(fundHoldings.kind, 'CURRENT')))
    .for('update');
  return row!;
}

/**
 * SQL of the shares of a holding that earned interest during Hong Kong day `day` (the set-based
 * accrual; see `fund_holdings`): the lowest the shares were during that day, so shares subscribed
 * on a day earn from the next calendar day and shares redeemed on a day do not earn that day.
 * - the last change was on `day`: that day's minimum;
 * - the last change was before `day`: the shares now (unchanged through the day);
 * - the holding changed after `day` (the accrual runs seconds after midnight, so at most that day's
 *   first minutes): the minimum of `day` when it changed on it too (`prev_day_*`), else the shares
 *   at the start of the later day; when it changed on two later days (a catch-up after days down)
 *   the lower of what is known.
 */
export function interestSharesSql(day: string): SQL {
  const h = fundHoldings;
  return sql`CASE WHEN ${h.dayStartDate} = ${day}::date THEN ${h.dayMinSharesMinor}
    WHEN ${h.dayStartDate} < ${day}::date THEN ${h.sharesMinor}
    WHEN ${h.prevDayDate} = ${day}::date THEN ${h.prevDayMinSharesMinor}
    WHEN ${h.prevDayDate} IS NULL OR ${h.prevDayDate} < ${day}::date THEN ${h.dayStartSharesMinor}
    ELSE LEAST(${h.prevDayMinSharesMinor}, ${h.dayStartSharesMinor}) END`;
}

/** The user's current holding, or undefined before the first subscription. */
export async function currentHoldingOf(db: DbOrTx, userId: string): Promise<HoldingRow | undefined> {
  const [row] = await db
    .select()
    .from(fundHoldings)
    .where(and(eq(fundHoldings.userId, userId), eq(fundHoldings.kind, 'CURRENT')));
  return row;
}

/** Shares of a holding that earn interest on day `today` (held since before it): see `fund_holdings`. */
export function interestSharesOn(holding: HoldingRow, today: string): bigint {
  if (holding.dayStartDate < today) return holding.sharesMinor;
  return holding.dayMinSharesMinor;
}
