import { type AssetCode, toDecimalString } from '@meridian/contracts/money';
import type { OpsDepositStatus } from '@meridian/contracts/back-office';
import { type Page, totalPages } from '@meridian/contracts/pagination';
import { and, count, desc, eq, type SQL } from 'drizzle-orm';
import type { Tx } from '../../platform/db/client.ts';
import { DomainError } from '../../platform/http/errors.ts';
import { deposits, withdrawals } from './wallet.tables.ts';
import type { OpsDepositRow, OpsWithdrawal } from './wallet.types.ts';
import {
  asAsset,
  type DepositRow,
  isLarge,
  notifyWithdrawal,
  toOpsWithdrawal,
  type WalletContext,
} from './wallet.internal.ts';
import { completeInTx, failInTx, transition } from './wallet.transitions.ts';

/** Deposit statuses as stored ('PENDING' | 'CREDITED' | 'FROZEN') → as the back office names them. */
function opsDepositStatusOf(stored: string): OpsDepositStatus {
  if (stored === 'CREDITED') return 'credited';
  if (stored === 'FROZEN') return 'frozen';
  return 'pending';
}

function toOpsDepositRow(row: DepositRow): OpsDepositRow {
  const asset = asAsset(row.coinCode);
  const isInternal = row.type === 'INTERNAL';
  return {
    id: String(row.id),
    userId: row.userId,
    coinCode: asset,
    network: row.network,
    address: row.address,
    amount: toDecimalString(row.amountMinor, asset),
    txHash: isInternal ? null : row.txHash,
    fromAddress: row.fromAddress,
    confirmations: row.confirmations,
    type: isInternal ? 'INTERNAL' : 'OUTER',
    status: opsDepositStatusOf(row.status),
    createdAt: row.createdAt.toISOString(),
    creditedAt: row.creditedAt?.toISOString() ?? null,
  };
}

/** The operators' withdrawal decisions (approve, process, complete, fail) and their lists of withdrawals and deposits. */
export function createOperatorsService(ctx: WalletContext) {
  /**
   * Operator (admin module): the second approval of a large waiting withdrawal; nothing
   * moves. The approver's email and the time are kept on the row; a different operator must then
   * process it (`processWithdrawal`). Conditional on the row being waiting and unapproved, under
   * the row's lock, so it is approved once.
   * @throws DomainError NOT_FOUND; WITHDRAW_STATE_CHANGED (138, content `{ status, approvedBy,
   *   needsSecondApproval }`) when it is not waiting, is already approved, or is not large.
   */
  async function approveWithdrawal(operatorEmail: string, id: number): Promise<OpsWithdrawal> {
    const row = await ctx.db.transaction(async (tx) => {
      const [current] = await tx
        .select()
        .from(withdrawals)
        .where(and(eq(withdrawals.id, id), eq(withdrawals.type, 'OUTER')))
        .for('update');
      if (!current) throw new DomainError('NOT_FOUND');
      if (current.status !== 0 || current.approvedBy !== null || !isLarge(ctx, current)) {
        throw new DomainError(
          'WITHDRAW_STATE_CHANGED',
          {},
          { status: current.status, approvedBy: current.approvedBy, needsSecondApproval: isLarge(ctx, current) },
        );
      }
      const [approved] = await tx
        .update(withdrawals)
        .set({ approvedBy: operatorEmail, approvedAt: ctx.now(), updatedAt: ctx.now() })
        .where(eq(withdrawals.id, id))
        .returning();
      return approved!;
    });
    return toOpsWithdrawal(ctx, row);
  }

  /**
   * Operator (admin module): 0 waiting → 1 processing (no money moves); `operatorEmail` is kept on
   * the row for the audit trail. A large withdrawal must have been approved first, by a
   * different operator: the row is locked (`FOR UPDATE`) while that is checked, so an approval
   * cannot slip in between.
   * @throws DomainError NOT_FOUND; WITHDRAW_STATE_CHANGED (138) when not waiting;
   *   SECOND_APPROVAL_REQUIRED (155) when large and not approved; FOUR_EYES_REQUIRED (153) when
   *   `operatorEmail` gave the approval.
   */
  async function processWithdrawal(operatorEmail: string, id: number): Promise<OpsWithdrawal> {
    const row = await ctx.db.transaction(async (tx) => {
      const [current] = await tx
        .select()
        .from(withdrawals)
        .where(and(eq(withdrawals.id, id), eq(withdrawals.type, 'OUTER')))
        .for('update');
      if (current && current.status === 0 && isLarge(ctx, current)) {
        if (current.approvedBy === null) throw new DomainError('SECOND_APPROVAL_REQUIRED');
        if (current.approvedBy === operatorEmail) throw new DomainError('FOUR_EYES_REQUIRED');
      }
      return transition(ctx, tx, id, [0], 1, { operatorEmail }, () => null);
    });
    await notifyWithdrawal(ctx, row);
    return toOpsWithdrawal(ctx, row);
  }

  /**
   * Operator (admin module): 1 processing → 2 success with the chain's txHash; the frozen amount
   * leaves to the hot wallet, the fee is earned. `alsoInTx` runs in the same transaction after the
   * transition (the chain sender books the transaction's gas there: docs/chain.md "Gas").
   * @throws DomainError NOT_FOUND, WITHDRAW_STATE_CHANGED (138) when not processing.
   */
  async function completeWithdrawal(
    operatorEmail: string,
    id: number,
    txHash: string,
    alsoInTx?: (tx: Tx) => Promise<unknown>,
  ): Promise<OpsWithdrawal> {
    const row = await ctx.db.transaction(async (tx) => {
      const settled = await completeInTx(ctx, tx, id, txHash, operatorEmail, [1]);
      await alsoInTx?.(tx);
      return settled;
    });
    await notifyWithdrawal(ctx, row);
    return toOpsWithdrawal(ctx, row);
  }

  /**
   * Operator (admin module): 0 or 1 → 3 failure; amount + fee back to available. `alsoInTx` runs in
   * the same transaction after the transition (a reverted chain transaction's gas).
   * @throws DomainError NOT_FOUND, WITHDRAW_STATE_CHANGED (138) when already settled.
   */
  async function failWithdrawal(
    operatorEmail: string,
    id: number,
    reason: string,
    alsoInTx?: (tx: Tx) => Promise<unknown>,
  ): Promise<OpsWithdrawal> {
    const row = await ctx.db.transaction(async (tx) => {
      const failed = await failInTx(ctx, tx, id, reason, operatorEmail, [0, 1]);
      await alsoInTx?.(tx);
      return failed;
    });
    await notifyWithdrawal(ctx, row);
    return toOpsWithdrawal(ctx, row);
  }

  /** Operator list of withdrawals, newest first, optionally of one status. */
  async function listForOperators(query: {
    pageID: number;
    pageSize: number;
    status?: number;
  }): Promise<Page<OpsWithdrawal>> {
    const where = query.status === undefined ? undefined : eq(withdrawals.status, query.status);
    const [total] = await ctx.db.select({ n: count() }).from(withdrawals).where(where);
    const rows = await ctx.db
      .select()
      .from(withdrawals)
      .where(where)
      .orderBy(desc(withdrawals.id))
      .limit(query.pageSize)
      .offset((query.pageID - 1) * query.pageSize);
    const totalCount = Number(total?.n ?? 0);
    return {
      list: rows.map((row) => toOpsWithdrawal(ctx, row)),
      pageID: query.pageID,
      pageSize: query.pageSize,
      totalCount,
      totalPage: totalPages(totalCount, query.pageSize),
    };
  }

  /**
   * Operators: deposits, newest first (by id), optionally of one status
   * (`pending` | `credited` | `frozen`) and one coin, one page. Amounts are decimal strings in the
   * coin's units. The owner is a user id only: the caller adds what it needs of the user.
   */
  async function listDepositsForOperators(query: {
    pageID: number;
    pageSize: number;
    status?: OpsDepositStatus | undefined;
    coinCode?: AssetCode | undefined;
  }): Promise<Page<OpsDepositRow>> {
    const filters: SQL[] = [];
    if (query.status !== undefined) filters.push(eq(deposits.status, query.status.toUpperCase()));
    if (query.coinCode !== undefined) filters.push(eq(deposits.coinCode, query.coinCode));
    const where = filters.length > 0 ? and(...filters) : undefined;
    const [total] = await ctx.db.select({ n: count() }).from(deposits).where(where);
    const rows = await ctx.db
      .select()
      .from(deposits)
      .where(where)
      .orderBy(desc(deposits.id))
      .limit(query.pageSize)
      .offset((query.pageID - 1) * query.pageSize);
    const totalCount = Number(total?.n ?? 0);
    return {
      list: rows.map((row) => toOpsDepositRow(row)),
      pageID: query.pageID,
      pageSize: query.pageSize,
      totalCount,
      totalPage: totalPages(totalCount, query.pageSize),
    };
  }

  return {
    approveWithdrawal,
    processWithdrawal,
    completeWithdrawal,
    failWithdrawal,
    listForOperators,
    listDepositsForOperators,
  };
}
