import {
  type LoanAdjustRecord,
  type LoanCoin,
  type LoanLiquidationRecord,
  type LoanProtection,
  type LoanRepayRecord,
  type LoanRepayType,
  type LoanStatus,
} from '@meridian/contracts/loans';
import { type Page, type PageQuery, totalPages } from '@meridian/contracts/pagination';
import { and, count, desc, eq, gte, lte, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../platform/db/client.ts';
import { DomainError, FieldError } from '../../platform/http/errors.ts';
import { btcText, COLLATERAL, coinText, type LoanPrice } from './loans.internal.ts';
import {
  type loanAdjustments,
  type loanLiquidations,
  type loanProtections,
  type loanRepayments,
} from './loans.tables.ts';
import type { LoansContext } from './loans.context.ts';

// Records of the loans' tables as the API answers them, and the paging of the history lists.

/** One page of a user's rows of `table`, newest first (`map` turns a row into its record). */
export async function pageOf<T>(
  db: DbOrTx,
  table: PgTable & { userId: PgColumn; id: PgColumn; createdAt: PgColumn },
  conditions: (SQL | undefined)[],
  query: PageQuery,
  map: (row: never) => T,
): Promise<Page<T>> {
  const where = and(...conditions);
  const [total] = await db.select({ n: count() }).from(table).where(where);
  const rows = await db
    .select()
    .from(table)
    .where(where)
    .orderBy(desc(table.id))
    .limit(query.pageSize)
    .offset((query.pageID - 1) * query.pageSize);
  const totalCount = total?.n ?? 0;
  return {
    list: rows.map((row) => map(row as never)),
    pageID: query.pageID,
    pageSize: query.pageSize,
    totalPage: totalPages(totalCount, query.pageSize),
    totalCount,
  };
}

/** The filters the history lists share: the user, the loan, the coin, the creation range. */
export function historyConditions(
  table: { userId: PgColumn; loanId: PgColumn; createdAt: PgColumn; loanCoin?: PgColumn },
  userId: string,
  query: { loanCoin?: string; createTime?: [string, string]; orderId?: string },
): (SQL | undefined)[] {
  return [
    eq(table.userId, userId),
    query.orderId ? eq(table.loanId, Number(query.orderId)) : undefined,
    query.loanCoin && table.loanCoin ? eq(table.loanCoin, query.loanCoin) : undefined,
    query.createTime ? gte(table.createdAt, new Date(query.createTime[0])) : undefined,
    query.createTime ? lte(table.createdAt, new Date(query.createTime[1])) : undefined,
  ];
}

/** The `Idempotency-Key` of a money-moving call. @throws FieldError validation.required when absent. */
export function requireKey(idempotencyKey: string | undefined): string {
  if (!idempotencyKey) throw new FieldError('Idempotency-Key', 'validation.required');
  return idempotencyKey;
}

/** The BTC price, or null when the pipeline refuses one (PRICE_UNAVAILABLE). */
export async function tryPrice(deps: Pick<LoansContext, 'btcPrice'>): Promise<LoanPrice | null> {
  try {
    return await deps.btcPrice();
  } catch (error) {
    if (error instanceof DomainError && error.code === 'PRICE_UNAVAILABLE') return null;
    throw error;
  }
}

/** A repayment row as the API answers it. */
export function toRepayRecord(row: typeof loanRepayments.$inferSelect): LoanRepayRecord {
  const coin = row.loanCoin;
  return {
    id: String(row.id),
    orderId: String(row.loanId),
    loanCoin: coin as LoanCoin,
    repayType: row.repayType as LoanRepayType,
    origin: row.origin as LoanRepayRecord['origin'],
    amount: coinText(row.amountMinor, coin),
    interest: coinText(row.interestMinor, coin),
    overdueInterest: coinText(row.overdueInterestMinor, coin),
    principal: coinText(row.principalMinor, coin),
    fee: coinText(row.feeMinor, coin),
    collateralSold: btcText(row.collateralSoldMinor),
    collateralReleased: btcText(row.collateralReleasedMinor),
    price: row.price,
    statusAfter: row.statusAfter as LoanStatus,
    createTime: row.createdAt.toISOString(),
  };
}

/** An adjustment row as the API answers it. */
export function toAdjustRecord(row: typeof loanAdjustments.$inferSelect): LoanAdjustRecord {
  return {
    id: String(row.id),
    orderId: String(row.loanId),
    direction: row.direction as LoanAdjustRecord['direction'],
    origin: row.origin as LoanAdjustRecord['origin'],
    collateralCoin: COLLATERAL,
    amount: btcText(row.amountMinor),
    collateralAfter: btcText(row.collateralAfterMinor),
    ltvBeforePct: row.ltvBefore,
    ltvAfterPct: row.ltvAfter,
    price: row.price,
    createTime: row.createdAt.toISOString(),
  };
}

/** A liquidation receipt as the API answers it. */
export function toLiquidationRecord(row: typeof loanLiquidations.$inferSelect): LoanLiquidationRecord {
  const coin = row.loanCoin;
  return {
    id: String(row.id),
    orderId: String(row.loanId),
    kind: row.kind as LoanLiquidationRecord['kind'],
    loanCoin: coin as LoanCoin,
    price: row.price,
    priceSources: row.priceSources,
    collateralSold: btcText(row.collateralSoldMinor),
    fee: coinText(row.feeMinor, coin),
    debtRepaid: coinText(row.debtRepaidMinor, coin),
    collateralReturned: btcText(row.collateralReturnedMinor),
    shortfall: coinText(row.shortfallMinor, coin),
    principalRepaid: row.principalRepaidMinor === null ? null : coinText(row.principalRepaidMinor, coin),
    interestRepaid: row.interestRepaidMinor === null ? null : coinText(row.interestRepaidMinor, coin),
    principalLoss: row.principalLossMinor === null ? null : coinText(row.principalLossMinor, coin),
    ltvBeforePct: row.ltvBefore,
    ltvAfterPct: row.ltvAfter,
    statusAfter: row.statusAfter as LoanStatus,
    createTime: row.createdAt.toISOString(),
  };
}

/** A protection rule as the API answers it (`coin`: the loan's coin, the unit of a REPAY maximum). */
export function toProtection(row: typeof loanProtections.$inferSelect, coin: string): LoanProtection {
  return {
    orderId: String(row.loanId),
    isEnabled: row.isEnabled,
    action: row.action as LoanProtection['action'],
    triggerLtvPct: row.triggerLtvBps / 100,
    targetLtvPct: row.targetLtvBps / 100,
    maxAmount: row.action === 'ADD_COLLATERAL' ? btcText(row.maxAmountMinor) : coinText(row.maxAmountMinor, coin),
    repaySource: row.repaySource as LoanProtection['repaySource'],
    lastRunTime: row.lastRunAt?.toISOString() ?? null,
    updateTime: row.updatedAt.toISOString(),
  };
}
