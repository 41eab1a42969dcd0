import { toDecimalString } from '@meridian/contracts/money';
import { type Page, totalPages } from '@meridian/contracts/pagination';
import { type WalletRecord, type WalletRecordQuery, WITHDRAW_STATUS } from '@meridian/contracts/wallet';
import { and, count, desc, eq, gte, inArray, lte, type SQL } from 'drizzle-orm';
import { userPostingsPage } from '../ledger/ledger.service.ts';
import { deposits, withdrawals } from './wallet.tables.ts';
import { toDepositRecord, toWithdrawRecord, type WalletContext } from './wallet.internal.ts';

/** The user's wallet history (`wallet/record`): deposits, withdrawals and swap legs. */
export function createRecordsService(ctx: WalletContext) {
  /** `GET wallet/record`: the user's deposits or withdrawals, newest first, filtered and paged. */
  async function records(userId: string, query: WalletRecordQuery): Promise<Page<WalletRecord>> {
    const offset = (query.pageID - 1) * query.pageSize;
    const [from, to] = query.createTime ?? [];
    if (query.action === 'exchange_in' || query.action === 'exchange_out') return swapLegRecords(userId, query, offset);
    if (query.action === 'withdraw') {
      const conditions: SQL[] = [eq(withdrawals.userId, userId)];
      if (query.coin) conditions.push(eq(withdrawals.coinCode, query.coin));
      if (query.status !== undefined) conditions.push(eq(withdrawals.status, query.status));
      if (query.type) conditions.push(eq(withdrawals.type, query.type));
      if (from && to)
        conditions.push(gte(withdrawals.createdAt, new Date(from)), lte(withdrawals.createdAt, new Date(to)));
      const [total] = await ctx.reads
        .select({ n: count() })
        .from(withdrawals)
        .where(and(...conditions));
      const rows = await ctx.reads
        .select()
        .from(withdrawals)
        .where(and(...conditions))
        .orderBy(desc(withdrawals.createdAt), desc(withdrawals.id))
        .limit(query.pageSize)
        .offset(offset);
      const totalCount = Number(total?.n ?? 0);
      return {
        list: rows.map((row) => toWithdrawRecord(row)),
        pageID: query.pageID,
        pageSize: query.pageSize,
        totalCount,
        totalPage: totalPages(totalCount, query.pageSize),
      };
    }
    const conditions: SQL[] = [eq(deposits.userId, userId)];
    if (query.coin) conditions.push(eq(deposits.coinCode, query.coin));
    if (query.status !== undefined)
      conditions.push(
        query.status === WITHDRAW_STATUS.SUCCESS
          ? eq(deposits.status, 'CREDITED')
          : inArray(deposits.status, ['PENDING', 'FROZEN']),
      );
    if (query.type) conditions.push(eq(deposits.type, query.type));
    if (from && to) conditions.push(gte(deposits.createdAt, new Date(from)), lte(deposits.createdAt, new Date(to)));
    const [total] = await ctx.reads
      .select({ n: count() })
      .from(deposits)
      .where(and(...conditions));
    const rows = await ctx.reads
      .select()
      .from(deposits)
      .where(and(...conditions))
      .orderBy(desc(deposits.createdAt), desc(deposits.id))
      .limit(query.pageSize)
      .offset(offset);
    const totalCount = Number(total?.n ?? 0);
    return {
      list: rows.map((row) => toDepositRecord(row)),
      pageID: query.pageID,
      pageSize: query.pageSize,
      totalCount,
      totalPage: totalPages(totalCount, query.pageSize),
    };
  }

  /**
   * Swap legs of the wallet record, read from the ledger: EXCHANGE_SWAP credits of the user's
   * available balance are `exchange_in`, debits `exchange_out`. A swap is done when it exists, so
   * a status filter other than 2 (success) or a type filter of OUTER matches nothing.
   */
  async function swapLegRecords(userId: string, query: WalletRecordQuery, offset: number): Promise<Page<WalletRecord>> {
    const action = query.action as 'exchange_in' | 'exchange_out';
    const empty = { list: [], pageID: query.pageID, pageSize: query.pageSize, totalCount: 0, totalPage: 0 };
    if ((query.status !== undefined && query.status !== WITHDRAW_STATUS.SUCCESS) || query.type === 'OUTER')
      return empty;
    const [from, to] = query.createTime ?? [];
    const { items, totalCount } = await userPostingsPage(ctx.reads, userId, {
      type: 'USER_AVAILABLE',
      kind: 'EXCHANGE_SWAP',
      side: action === 'exchange_in' ? 'credit' : 'debit',
      ...(query.coin ? { asset: query.coin } : {}),
      ...(from && to ? { createdFrom: new Date(from), createdTo: new Date(to) } : {}),
      limit: query.pageSize,
      offset,
    });
    const list = items.map((item): WalletRecord => ({
      id: String(item.entryId),
      action,
      coinCode: item.asset,
      network: '',
      address: '',
      amount: toDecimalString(item.amountMinor < 0n ? -item.amountMinor : item.amountMinor, item.asset),
      fee: toDecimalString(0n, item.asset),
      type: 'INTERNAL',
      status: WITHDRAW_STATUS.SUCCESS,
      txHash: null,
      confirmations: null,
      createTime: item.createdAt.toISOString(),
    }));
    return {
      list,
      pageID: query.pageID,
      pageSize: query.pageSize,
      totalCount,
      totalPage: totalPages(totalCount, query.pageSize),
    };
  }

  return { records };
}
