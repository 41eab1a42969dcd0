import { CURRENT_PRODUCT_ID } from '@meridian/contracts/funds';
import type { FundAsset, FundEarningsDay, FundOrder, FundOrderQuery } from '@meridian/contracts/funds';
import type { Locale } from '@meridian/contracts/locale';
import { type AssetCode } from '@meridian/contracts/money';
import { type Page, totalPages } from '@meridian/contracts/pagination';
import { and, eq, gte, inArray, lte, type SQL, sql } from 'drizzle-orm';
import { hongKongDay } from '../../platform/calendar/business-calendar.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { queryRows, rowOfTable } from '../../platform/db/rows.ts';
import { addDays } from './funds.interest.ts';
import { type FundsContext, interestSharesOn, productName, type ProductRow, usd } from './funds.internal.ts';
import { fundAccruals, fundHoldings, fundOrders, fundProducts, fundWiresOut } from './funds.tables.ts';
type OrderRow = typeof fundOrders.$inferSelect;

/**
 * `WITH … lines AS (…)`: the user's fund history as `fund_orders` rows (plus `line_id` text), the
 * stored rows and the INTEREST line of each monthly payout of the user's current holding. A payout
 * writes one `fund_payout_batches` row per id batch instead of a row per holding (docs/funds.md
 * "Benchmark"), so a line is read back: for each month whose batch covers the holding's id (the
 * earliest batch when two processes covered it), the amount paid is what the payout kept on the
 * holding (`last_payout_minor`) for its last payout month, and for an earlier month the holding's
 * accruals from the previous payout's month up to that month — exactly what that payout paid,
 * because a payout runs only once every day before its month is accrued and pays all of them.
 * Months paid nothing (0) have no line. Old payouts' stored INTEREST rows stay as they are; their
 * months have no batches. `id` is 0 on a read line (sorting only); `line_id` is `payout:<YYYY-MM>`.
 */
function historyLinesSql(userId: string): SQL {
  return sql`WITH h AS (
      SELECT id, last_payout_month, last_payout_minor FROM fund_holdings WHERE user_id = ${userId} AND kind = 'CURRENT'
    ), b AS (
      SELECT DISTINCT ON (pb.month) pb.month, pb.paid_at FROM fund_payout_batches pb
      JOIN h ON h.id >= pb.first_holding_id AND h.id < pb.end_holding_id
      ORDER BY pb.month, pb.paid_at
    ), w AS (
      SELECT b.month, b.paid_at,
        coalesce(lag(b.month) OVER (ORDER BY b.month), (SELECT max(p.month) FROM fund_payouts p WHERE p.month < b.month)) AS from_month
      FROM b
    ), paid AS (
      SELECT w.month, w.paid_at,
        CASE WHEN w.month = h.last_payout_month THEN h.last_payout_minor
        ELSE (SELECT coalesce(sum(a.amount_minor), 0) FROM fund_accruals a
              WHERE a.holding_id = h.id AND a.day < (w.month || '-01')::date
                AND (w.from_month IS NULL OR a.day >= (w.from_month || '-01')::date)) END AS amount_minor
      FROM w CROSS JOIN h
    ), lines AS (
      SELECT o.id::text AS line_id, o.id, o.user_id, o.product_id, o.action, o.action_type, o.coin, o.amount_minor,
        o.interest_minor, o.status, o.reference, o.bank_account_id, o.holding_id, o.idempotency_key, o.request_hash,
        o.created_at, o.completed_at
      FROM fund_orders o WHERE o.user_id = ${userId}
      UNION ALL
      SELECT 'payout:' || paid.month, 0, ${userId}, ${CURRENT_PRODUCT_ID}, 'INTEREST', NULL, NULL, paid.amount_minor,
        NULL, 'SUCCESS', NULL, NULL, NULL, NULL, NULL, paid.paid_at, paid.paid_at
      FROM paid WHERE paid.amount_minor > 0
    )`;
}

/** Fund orders as the API answers them (`toFundOrder`, `describe`), shared by the orders and the history. */
export function createOrderViews(ctx: FundsContext) {
  function toFundOrder(
    row: OrderRow,
    names: Map<string, string>,
    products?: Map<string, ProductRow>,
    lineId = String(row.id),
  ): FundOrder {
    const product = products?.get(row.productId);
    return {
      id: lineId,
      productId: row.productId,
      productName: names.get(row.productId) ?? row.productId,
      type: row.productId === CURRENT_PRODUCT_ID || product?.type === 'CURRENT' ? 'CURRENT' : 'FIXED',
      action: row.action,
      actionType: row.actionType,
      coin: (row.coin as AssetCode | null) ?? null,
      amount: usd(row.amountMinor),
      interest: row.interestMinor === null ? null : usd(row.interestMinor),
      status: row.status,
      interestDate: product?.type === 'FIXED' ? product.interestDate : null,
      maturityDate: product?.type === 'FIXED' ? product.maturityDate : null,
      wire:
        row.actionType === 'USD' && row.reference
          ? { reference: row.reference, receivingAccount: ctx.receivingAccount }
          : null,
      createTime: row.createdAt.toISOString(),
      completeTime: row.completedAt?.toISOString() ?? null,
    };
  }

  async function describe(row: OrderRow, locale: Locale, db: DbOrTx = ctx.db): Promise<FundOrder> {
    const products = new Map((await db.select().from(fundProducts)).map((p) => [p.id, p]));
    const names = new Map([...products].map(([id, p]) => [id, productName(p, locale)]));
    return toFundOrder(row, names, products);
  }
  return { toFundOrder, describe };
}

/** The asset view, the history and the earnings: parts of `createFundsService`. */
export function createHistoryService(ctx: FundsContext) {
  const today = () => hongKongDay(ctx.clock.now());

  /** The ids of a user's holdings: the way to the user's accruals (`fund_accruals` is keyed by holding). */
  const holdingIdsOf = (userId: string) =>
    ctx.db.select({ id: fundHoldings.id }).from(fundHoldings).where(eq(fundHoldings.userId, userId));

  async function productNames(locale: Locale): Promise<Map<string, string>> {
    const rows = await ctx.db.select().from(fundProducts);
    return new Map(rows.map((row) => [row.id, productName(row, locale)]));
  }

  const { toFundOrder } = createOrderViews(ctx);

  return {
    /** `GET fund/v2/asset` for the caller, on today's Hong Kong calendar. */
    async asset(userId: string): Promise<FundAsset> {
      const day = today();
      const holdings = await ctx.db.select().from(fundHoldings).where(eq(fundHoldings.userId, userId));
      const current = holdings.find((h) => h.kind === 'CURRENT');
      const fixed = holdings.filter((h) => h.kind === 'FIXED');
      const held = fixed.filter((h) => h.status === 'HOLDING');
      const sum = (values: bigint[]) => values.reduce((total, value) => total + value, 0n);
      const [frozen] = await ctx.db
        .select({ total: sql<string>`coalesce(sum(${fundWiresOut.amountMinor}), 0)::text` })
        .from(fundWiresOut)
        .where(and(eq(fundWiresOut.userId, userId), eq(fundWiresOut.status, 'PENDING')));
      const frozenMinor = BigInt(frozen?.total ?? '0');
      const [yesterday] = await ctx.db
        .select({ total: sql<string>`coalesce(sum(${fundAccruals.amountMinor}), 0)::text` })
        .from(fundAccruals)
        .where(and(inArray(fundAccruals.holdingId, holdingIdsOf(userId)), eq(fundAccruals.day, addDays(day, -1))));
      const currentShares = current?.sharesMinor ?? 0n;
      const currentInterest = current ? interestSharesOn(current, day) : 0n;
      const fixedShares = sum(held.map((h) => h.sharesMinor));
      const fixedUnInterest = sum(held.filter((h) => (h.interestDate ?? '') > day).map((h) => h.sharesMinor));
      const currentUnsettled = current?.unsettledMinor ?? 0n;
      const fixedUnsettled = sum(held.map((h) => h.unsettledMinor));
      const currentPaid = current?.paidMinor ?? 0n;
      const fixedPaid = sum(fixed.map((h) => h.paidMinor));
      return {
        historyProfit: usd(currentPaid + fixedPaid),
        totalValue: usd(currentShares + frozenMinor + fixedShares + currentUnsettled + fixedUnsettled),
        yesterdayProfit: usd(BigInt(yesterday?.total ?? '0')),
        currentProduct: {
          usableShares: usd(currentShares),
          unusableShares: usd(frozenMinor),
          unsettleProfit: usd(currentUnsettled),
          historyProfit: usd(currentPaid),
          interestShares: usd(currentInterest),
          unInterestShares: usd(currentShares - currentInterest),
        },
        fixedProduct: {
          historyProfit: usd(fixedPaid),
          holdingProducts: held.length,
          totalShares: usd(fixedShares),
          unInterestShares: usd(fixedUnInterest),
          unsettleProfit: usd(fixedUnsettled),
          interestShares: usd(fixedShares - fixedUnInterest),
        },
      };
    },

    /**
     * `GET fund/v2/order`: the caller's fund history, newest first, filtered and paged: the rows of
     * `fund_orders` and the monthly INTEREST lines of the current holding (`payoutLinesSql`, id
     * `payout:<YYYY-MM>`), which the payout no longer writes per holding.
     */
    async orders(userId: string, query: FundOrderQuery, locale: Locale): Promise<Page<FundOrder>> {
      const products = new Map((await ctx.db.select().from(fundProducts)).map((p) => [p.id, p]));
      const ofType = query.type
        ? [...products.values()].filter((p) => p.type === query.type).map((p) => p.id)
        : undefined;
      const filters = [
        ofType
          ? sql`l.product_id IN (${sql.join(ofType.length ? ofType.map((id) => sql`${id}`) : [sql`NULL`], sql`, `)})`
          : undefined,
        query.action ? sql`l.action = ${query.action}` : undefined,
        query.coin ? sql`l.coin = ${query.coin}` : undefined,
        query.createTime ? sql`l.created_at >= ${new Date(query.createTime[0]).toISOString()}::timestamptz` : undefined,
        query.createTime ? sql`l.created_at <= ${new Date(query.createTime[1]).toISOString()}::timestamptz` : undefined,
      ].filter((filter): filter is SQL => filter !== undefined);
      const where = filters.length ? sql`WHERE ${sql.join(filters, sql` AND `)}` : sql``;
      const lines = historyLinesSql(userId);
      const [total] = await queryRows<{ n: number }>(
        ctx.db,
        sql`${lines} SELECT count(*)::int AS n FROM lines l ${where}`,
      );
      const raw = await queryRows<Record<string, unknown> & { line_id: string }>(
        ctx.db,
        sql`${lines} SELECT l.* FROM lines l ${where} ORDER BY l.created_at DESC, l.id DESC
            LIMIT ${query.pageSize} OFFSET ${(query.pageID - 1) * query.pageSize}`,
      );
      const names = await productNames(locale);
      const totalCount = total?.n ?? 0;
      return {
        list: raw.map((line) => toFundOrder(rowOfTable(fundOrders, line), names, products, line.line_id)),
        pageID: query.pageID,
        pageSize: query.pageSize,
        totalPage: totalPages(totalCount, query.pageSize),
        totalCount,
      };
    },

    /** `GET fund/v2/earnings?days=N`: interest accrued per Hong Kong day, the N days up to yesterday, every day present. */
    async earnings(userId: string, days: number): Promise<FundEarningsDay[]> {
      const last = addDays(today(), -1);
      const first = addDays(last, -(days - 1));
      const rows = await ctx.db
        .select({
          day: fundAccruals.day,
          kind: fundAccruals.kind,
          total: sql<string>`sum(${fundAccruals.amountMinor})::text`,
        })
        .from(fundAccruals)
        .where(
          and(
            inArray(fundAccruals.holdingId, holdingIdsOf(userId)),
            gte(fundAccruals.day, first),
            lte(fundAccruals.day, last),
          ),
        )
        .groupBy(fundAccruals.day, fundAccruals.kind);
      const byDay = new Map<string, { current: bigint; fixed: bigint }>();
      for (const row of rows) {
        const entry = byDay.get(row.day) ?? { current: 0n, fixed: 0n };
        if (row.kind === 'CURRENT') entry.current += BigInt(row.total);
        else entry.fixed += BigInt(row.total);
        byDay.set(row.day, entry);
      }
      return Array.from({ length: days }, (_unused, index) => {
        const date = addDays(first, index);
        const entry = byDay.get(date) ?? { current: 0n, fixed: 0n };
        return {
          date,
          profit: usd(entry.current + entry.fixed),
          currentProfit: usd(entry.current),
          fixedProfit: usd(entry.fixed),
        };
      });
    },
  };
}
