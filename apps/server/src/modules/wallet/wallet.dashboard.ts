import { WITHDRAW_STATUS, type WithdrawStatus } from '@meridian/contracts/wallet';
import { and, asc, count, desc, eq, gte, isNull, sql } from 'drizzle-orm';
import { deposits, screeningAlerts, withdrawals } from './wallet.tables.ts';
import type { OperatorQueueSize, WalletActivityItem, WalletFlowTotal } from './wallet.types.ts';
import { LARGE_WITHDRAWAL_USD_DEFAULT, type WalletContext } from './wallet.internal.ts';

/** Withdrawal statuses by name. */
const WITHDRAW_STATUS_NAMES: Record<WithdrawStatus, string> = {
  0: 'waiting',
  1: 'processing',
  2: 'success',
  3: 'failure',
  4: 'cancel',
};

/** The wallet's figures for the back office: review queues, a day's flows, a user's recent activity. */
export function createDashboardService(ctx: WalletContext) {
  /**
   * The wallet's review queues for the back-office dashboard: OUTER withdrawals waiting for an
   * operator (status 0) and open screening alerts, each with its size and oldest item.
   */
  async function operatorQueues(): Promise<{
    withdrawals: OperatorQueueSize;
    largeWithdrawals: OperatorQueueSize;
    screeningAlerts: OperatorQueueSize;
  }> {
    const [waiting] = await ctx.db
      .select({ size: count(), oldestAt: sql<Date | string | null>`min(${withdrawals.createdAt})` })
      .from(withdrawals)
      .where(and(eq(withdrawals.type, 'OUTER'), eq(withdrawals.status, WITHDRAW_STATUS.WAITING)));
    const largeUsd = ctx.options.largeWithdrawalUsd ?? LARGE_WITHDRAWAL_USD_DEFAULT;
    const [large] = await ctx.db
      .select({ size: count(), oldestAt: sql<Date | string | null>`min(${withdrawals.createdAt})` })
      .from(withdrawals)
      .where(
        and(
          eq(withdrawals.type, 'OUTER'),
          eq(withdrawals.status, WITHDRAW_STATUS.WAITING),
          isNull(withdrawals.approvedBy),
          sql`${withdrawals.usdValue} > ${largeUsd}::numeric`,
        ),
      );
    const [alerts] = await ctx.db
      .select({ size: count(), oldestAt: sql<Date | string | null>`min(${screeningAlerts.createdAt})` })
      .from(screeningAlerts)
      .where(eq(screeningAlerts.status, 'open'));
    const asQueue = (row: { size: number; oldestAt: Date | string | null } | undefined): OperatorQueueSize => ({
      size: Number(row?.size ?? 0),
      oldestAt: row?.oldestAt ? new Date(row.oldestAt) : null,
    });
    return { withdrawals: asQueue(waiting), largeWithdrawals: asQueue(large), screeningAlerts: asQueue(alerts) };
  }

  /**
   * Deposits credited and withdrawals requested (any status but cancelled) in [`from`, `to`), per
   * asset: count and amount in minor units (withdrawals without their fee). For the dashboard's day.
   */
  async function flowTotalsBetween(from: Date, to: Date): Promise<WalletFlowTotal[]> {
    const depositRows = await ctx.db
      .select({
        asset: deposits.coinCode,
        count: count(),
        amountMinor: sql<string>`sum(${deposits.amountMinor})::text`,
      })
      .from(deposits)
      .where(and(eq(deposits.status, 'CREDITED'), gte(deposits.creditedAt, from), sql`${deposits.creditedAt} < ${to}`))
      .groupBy(deposits.coinCode)
      .orderBy(asc(deposits.coinCode));
    const withdrawalRows = await ctx.db
      .select({
        asset: withdrawals.coinCode,
        count: count(),
        amountMinor: sql<string>`sum(${withdrawals.amountMinor})::text`,
      })
      .from(withdrawals)
      .where(
        and(
          sql`${withdrawals.status} <> ${WITHDRAW_STATUS.CANCEL}`,
          gte(withdrawals.createdAt, from),
          sql`${withdrawals.createdAt} < ${to}`,
        ),
      )
      .groupBy(withdrawals.coinCode)
      .orderBy(asc(withdrawals.coinCode));
    return [
      ...depositRows.map((row) => ({
        kind: 'deposits' as const,
        ...row,
        count: Number(row.count),
        amountMinor: BigInt(row.amountMinor),
      })),
      ...withdrawalRows.map((row) => ({
        kind: 'withdrawals' as const,
        ...row,
        count: Number(row.count),
        amountMinor: BigInt(row.amountMinor),
      })),
    ];
  }

  /** The user's latest deposits and withdrawals (at most `limit` of each), newest first, for the back office's user page. */
  async function recentActivityOf(userId: string, limit: number): Promise<WalletActivityItem[]> {
    const depositRows = await ctx.db
      .select()
      .from(deposits)
      .where(eq(deposits.userId, userId))
      .orderBy(desc(deposits.createdAt), desc(deposits.id))
      .limit(limit);
    const withdrawalRows = await ctx.db
      .select()
      .from(withdrawals)
      .where(eq(withdrawals.userId, userId))
      .orderBy(desc(withdrawals.createdAt), desc(withdrawals.id))
      .limit(limit);
    const items: WalletActivityItem[] = [
      ...depositRows.map((row) => ({
        at: row.creditedAt ?? row.createdAt,
        kind: row.type === 'INTERNAL' ? ('internalDeposit' as const) : ('deposit' as const),
        asset: row.coinCode,
        amountMinor: row.amountMinor,
        status: row.status.toLowerCase(),
      })),
      ...withdrawalRows.map((row) => ({
        at: row.createdAt,
        kind: row.type === 'INTERNAL' ? ('internalWithdrawal' as const) : ('withdrawal' as const),
        asset: row.coinCode,
        amountMinor: row.amountMinor,
        status: WITHDRAW_STATUS_NAMES[row.status as WithdrawStatus] ?? String(row.status),
      })),
    ];
    return items.sort((a, b) => b.at.getTime() - a.at.getTime()).slice(0, limit);
  }

  return { operatorQueues, flowTotalsBetween, recentActivityOf };
}
