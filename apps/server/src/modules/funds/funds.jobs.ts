import { CURRENT_PRODUCT_ID } from '@meridian/contracts/funds';
import type { Locale } from '@meridian/contracts/locale';
import { sql, type SQL } from 'drizzle-orm';
import { hongKongDay } from '../../platform/calendar/business-calendar.ts';
import type { Db, DbOrTx } from '../../platform/db/client.ts';
import { queryRows } from '../../platform/db/rows.ts';
import { postEntries, postEntry, postFanout } from '../ledger/ledger.service.ts';
import { platformAccount, type PostingInput, transfer, userAccount, type EntryInput } from '../ledger/ledger.types.ts';
import {
  addDays,
  dailyInterestE8Sql,
  E8_PER_CENT,
  firstBusinessDay,
  monthOf,
  type RateTier,
} from './funds.interest.ts';
import { type FundsContext, holdingDeltaSet, interestSharesSql, tiersByProduct, usd } from './funds.internal.ts';
import { fundProducts } from './funds.tables.ts';

/** Holdings per accrual or payout batch (one transaction each; STYLE: bound every batch). */
export const FUND_BATCH_HOLDINGS_DEFAULT = 50_000;
/** Fixed orders matured per batch: one ledger statement (`postEntries` takes 64). */
const MATURITY_BATCH = 64;
/** Days one run catches up at most (a longer outage is caught up over several runs, in order). */
const CATCH_UP_DAYS_MAX = 400;

/** Options of the batch jobs (tests and the benchmark). */
export interface BatchOptions {
  /** Holdings per batch (default 50,000). */
  batchSize?: number;
  /** Stop after this many batches, as if the process were killed (tests of a half-way run). */
  batchesMax?: number;
  /**
   * Batches run at once, each in its own transaction on its own connection of the pool (default 1:
   * one after another). More than 1 only with a pooled PostgreSQL `Db` — never a transaction, and
   * never PGlite (one connection). The batches' id ranges are disjoint, so are their holdings (and,
   * in the payout, their users' accounts); they meet only on the platform accounts' postings at the
   * end of each batch (one waits for the other's commit, no cycle).
   */
  connections?: number;
}

/** Options of the payout. */
export interface PayoutOptions extends BatchOptions {
  /** The month paid (YYYY-MM), default this Hong Kong month. */
  month?: string;
}

/** Options of `runDaily` (the `funds.daily` job). */
export interface DailyOptions extends Omit<BatchOptions, 'connections'> {
  /** The payout is another job's (`funds.payout` on PostgreSQL): skip it here. */
  isPayoutSeparate?: boolean;
  /**
   * Accrue on this pooled PostgreSQL `Db`, `connections` batches at once, each batch committed on
   * its own, instead of in the `db` given to `runDaily` (the job's transaction).
   */
  accrualPool?: { db: Db; connections: number };
}

/** Payout batches run at once on PostgreSQL by the `funds.payout` job (2 cores: docs/funds.md "Benchmark"). */
export const FUND_PAYOUT_CONNECTIONS_POSTGRES = 2;
/** Accrual batches run at once on PostgreSQL by the `funds.daily` job (2 cores: docs/funds.md "Benchmark"). */
export const FUND_ACCRUAL_CONNECTIONS_POSTGRES = 2;

/** What one day's accrual did. */
export interface AccrualDayResult {
  day: string;
  /** Holdings accrued by this run (0 on a rerun: each (holding, day) is accrued once). */
  holdingCount: number;
  /** Whole USD cents credited to the holdings' unpaid interest and posted to the ledger. */
  totalMinor: bigint;
  /** The day's interest at 10⁻⁸ USD (before the holdings' carries made whole cents of it). */
  totalE8: bigint;
  batchCount: number;
  /** The run stopped before the last batch (`batchesMax`). */
  isPartial: boolean;
}

/** What one payout did. */
export interface PayoutResult {
  month: string;
  paidOn: string;
  holdingCount: number;
  totalMinor: bigint;
  isPartial: boolean;
}

/** A matured fixed order (told to its owner after the commit). */
interface MaturedOrder {
  userId: string;
  productId: string;
  principalMinor: bigint;
  interestMinor: bigint;
}

/**
 * Run `runBatch` once for each start of `batchStarts`, in that order, `options.connections` at a
 * time (default 1: one after another): each worker takes the next start and awaits its batch before
 * taking another, so at most `connections` batches (transactions) are open at once. After the first
 * failure no worker takes another batch; the failure is thrown once every started batch has settled.
 * `onBatch` sees each batch's result as it completes (in completion order).
 * @returns `isPartial` when `options.batchesMax` batches were started and others were left (a run
 *   stopped half-way, as tests simulate a killed process).
 */
async function runBatches<T>(
  batchStarts: readonly number[],
  options: Pick<BatchOptions, 'batchesMax' | 'connections'>,
  runBatch: (lo: number) => Promise<T>,
  onBatch: (lo: number, result: T) => void,
): Promise<{ isPartial: boolean }> {
  let taken = 0;
  let isFailed = false;
  let isPartial = false;
  const worker = async (): Promise<void> => {
    while (!isFailed && taken < batchStarts.length) {
      if (options.batchesMax !== undefined && taken >= options.batchesMax) {
        isPartial = true;
        return;
      }
      const lo = batchStarts[taken]!;
      taken += 1;
      const result = await runBatch(lo).catch((error: unknown) => {
        isFailed = true;
        throw error;
      });
      onBatch(lo, result);
    }
  };
  const connections = Math.max(1, Math.min(options.connections ?? 1, batchStarts.length));
  const outcomes = await Promise.allSettled(Array.from({ length: connections }, () => worker()));
  const failure = outcomes.find((outcome) => outcome.status === 'rejected');
  if (failure) throw failure.reason;
  return { isPartial };
}

/** The starts of the id batches of `batchSize` covering [range.lo, range.hi] (none when there are no rows). */
function batchStartsOf(range: { lo: number; hi: number } | null, batchSize: number): number[] {
  const starts: number[] = [];
  for (let lo = range?.lo ?? 1; range && lo <= range.hi; lo += batchSize) starts.push(lo);
  return starts;
}

function idRangeOf(rows: { lo: string | null; hi: string | null }[]): { lo: number; hi: number } | null {
  const row = rows[0];
  if (!row?.lo || !row.hi) return null;
  return { lo: Number(row.lo), hi: Number(row.hi) };
}

/**
 * The one statement that accrues Hong Kong day `day` for the holdings with ids in [lo, hi)
 * (`accrueDay`): each holding's interest of the day in 10⁻⁸ USD (`interestE8` of the shares that
 * earned, bigint: shares and carry are cast once per row), one `fund_accruals` row per holding with
 * interest (its key (holding, day) makes a rerun insert nothing) with that amount and the whole cents
 * it makes with the carry, and the holding's update: the cents into its unpaid interest (and this
 * month's part), the rest as its new carry. Answers `n`, cents `total`, 10⁻⁸ USD `total_e8`. The carry
 * read in `e` is the one the update adds to (only the accrual changes it, under the job's lock, and
 * a day is inserted once); the carry's CHECK (0 ≤ carry < 1 cent) would refuse the batch otherwise.
 */
function accrualBatchSql(input: { day: string; lo: number; hi: number; interestE8: (shares: SQL) => SQL }): SQL {
  const { day, lo, hi, interestE8 } = input;
  const month = monthOf(day);
  const e8PerCent = sql`${E8_PER_CENT.toString()}::bigint`;
  return sql`WITH e AS (
            SELECT fund_holdings.id, fund_holdings.user_id, fund_holdings.kind, fund_holdings.product_id,
                   fund_holdings.interest_carry_e8::bigint AS carry,
                   (CASE WHEN fund_holdings.kind = 'FIXED' THEN fund_holdings.shares_minor ELSE ${interestSharesSql(day)} END)::bigint AS shares
            FROM fund_holdings
            WHERE fund_holdings.id >= ${lo} AND fund_holdings.id < ${hi} AND fund_holdings.status = 'HOLDING'
              AND (fund_holdings.kind = 'CURRENT'
                   OR (fund_holdings.interest_date <= ${day}::date AND ${day}::date < fund_holdings.maturity_date))
          ), a AS (
            SELECT e.id, e.user_id, e.kind, e.carry, ${interestE8(sql`e.shares`)} AS amount_e8 FROM e
          ), ins AS (
            INSERT INTO fund_accruals (holding_id, day, user_id, kind, amount_e8, amount_minor)
            SELECT a.id, ${day}::date, a.user_id, a.kind, a.amount_e8, (a.carry + a.amount_e8) / ${e8PerCent}
            FROM a WHERE a.amount_e8 > 0
            ON CONFLICT DO NOTHING
            RETURNING holding_id, amount_e8, amount_minor
          ), upd AS (
            UPDATE fund_holdings h SET
              unsettled_minor = h.unsettled_minor + ins.amount_minor,
              unsettled_month_minor = CASE WHEN h.accrual_month = ${month} THEN h.unsettled_month_minor + ins.amount_minor ELSE ins.amount_minor END,
              accrual_month = ${month},
              interest_carry_e8 = h.interest_carry_e8 + ins.amount_e8 - ins.amount_minor * ${E8_PER_CENT.toString()}::numeric
            FROM ins WHERE h.id = ins.holding_id AND h.id >= ${lo} AND h.id < ${hi}
            RETURNING ins.amount_minor, ins.amount_e8
          )
          SELECT count(*)::int AS n, coalesce(sum(amount_minor), 0)::text AS total,
                 coalesce(sum(amount_e8), 0)::text AS total_e8 FROM upd`;
}

/** Daily accrual, monthly payout and maturities: parts of `createFundsService`, run by the scheduler's leader. */
export function createJobsService(ctx: FundsContext) {
  /** `CASE product_id WHEN … THEN <daily interest of shares in 10⁻⁸ USD> … END` for every product's tiers. */
  function interestByProductSql(shares: SQL, tiers: Map<string, RateTier[]>): SQL {
    if (tiers.size === 0) return sql`0::bigint`;
    const whens = [...tiers].map(
      ([productId, productTiers]) => sql`WHEN ${productId} THEN ${dailyInterestE8Sql(shares, productTiers)}`,
    );
    return sql`CASE e.product_id ${sql.join(whens, sql` `)} ELSE 0::bigint END`;
  }

  /**
   * Accrue Hong Kong day `day` for every holding, in id batches of `batchSize` (each its own
   * transaction, or savepoint inside the caller's; with `connections` > 1 on a pooled PostgreSQL
   * `Db`, that many batches at once): one statement per batch (`accrualBatchSql`) accrues each
   * holding's interest at 10⁻⁸ USD, credits the whole cents and carries the rest, then one journal
   * entry posts the batch's cents (interest expense → accrued interest, key
   * `fund-accrual:<day>:<first id>-<end id>`; the carry is only on the holdings: decision 0008).
   * Fixed orders earn from their interest date to the day before maturity; current shares as the
   * day columns say.
   * The day is recorded (`fund_accrual_days`) only after every batch committed; a run stopped before
   * (`batchesMax`, a crash) leaves its committed batches, whichever they were, and a rerun inserts
   * only the rest. Answers `isPartial` when stopped by `batchesMax`.
   */
  async function accrueDay(db: DbOrTx, day: string, options: BatchOptions = {}): Promise<AccrualDayResult> {
    const batchSize = options.batchSize ?? FUND_BATCH_HOLDINGS_DEFAULT;
    const tiers = await tiersByProduct(db);
    const range = idRangeOf(
      await queryRows<{ lo: string | null; hi: string | null }>(
        db,
        sql`SELECT min(id)::text AS lo, max(id)::text AS hi FROM fund_holdings`,
      ),
    );
    const result: AccrualDayResult = {
      day,
      holdingCount: 0,
      totalMinor: 0n,
      totalE8: 0n,
      batchCount: 0,
      isPartial: false,
    };
    const startedMs = performance.now(); // elapsed time for the log: the monotonic clock
    /** Accrue the holdings with ids in [lo, lo + batchSize): one transaction. */
    const accrueBatch = (lo: number) => {
      const hi = lo + batchSize;
      return db.transaction(async (tx) => {
        const [row] = await queryRows<{ n: number; total: string; total_e8: string }>(
          tx,
          accrualBatchSql({ day, lo, hi, interestE8: (shares) => interestByProductSql(shares, tiers) }),
        );
        const batchTotal = BigInt(row?.total ?? '0');
        if (batchTotal > 0n) {
          await postEntry(tx, {
            kind: 'FUND_ACCRUAL',
            reference: `fund-accrual:${day}`,
            idempotencyKey: `fund-accrual:${day}:${lo}-${hi}`,
            postings: transfer(
              platformAccount('PLATFORM_INTEREST_EXPENSE', 'USD'),
              platformAccount('PLATFORM_FUND_ACCRUED_INTEREST', 'USD'),
              batchTotal,
            ),
            metadata: { day, firstHoldingId: String(lo), holdings: String(row?.n ?? 0) },
          });
        }
        return { n: Number(row?.n ?? 0), total: batchTotal, totalE8: BigInt(row?.total_e8 ?? '0') };
      });
    };
    const { isPartial } = await runBatches(
      batchStartsOf(range, batchSize),
      options,
      accrueBatch,
      (lo, { n, total, totalE8 }) => {
        result.batchCount += 1;
        result.holdingCount += n;
        result.totalMinor += total;
        result.totalE8 += totalE8;
        ctx.log.info(
          {
            day,
            firstHoldingId: lo,
            holdings: n,
            totalUsd: usd(total),
            elapsedMs: Math.round(performance.now() - startedMs),
          },
          'fund accrual batch',
        );
      },
    );
    if (isPartial) {
      result.isPartial = true;
      return result;
    }
    // Only after every batch committed: a run that died before leaves the day to the next run.
    await db.execute(
      sql`INSERT INTO fund_accrual_days (day, holding_count, total_minor) VALUES (${day}, ${result.holdingCount}, ${result.totalMinor.toString()}::numeric) ON CONFLICT DO NOTHING`,
    );
    return result;
  }

  /**
   * Accrue every day not yet accrued up to yesterday (Hong Kong), oldest first: after an outage
   * the missed days are caught up in order. The first day is the one after the last finished day,
   * or the day the oldest holding was created.
   */
  async function runAccrual(db: DbOrTx, options: BatchOptions = {}): Promise<AccrualDayResult[]> {
    const yesterday = addDays(hongKongDay(ctx.clock.now()), -1);
    const [state] = await queryRows<{ last: string | null; first: string | null }>(
      db,
      sql`SELECT (SELECT max(day)::text FROM fund_accrual_days) AS last,
                 (SELECT min((created_at AT TIME ZONE 'Asia/Hong_Kong')::date)::text FROM fund_holdings) AS first`,
    );
    if (!state?.first) return [];
    let day = state.last ? addDays(state.last, 1) : state.first;
    const results: AccrualDayResult[] = [];
    for (let count = 0; day <= yesterday && count < CATCH_UP_DAYS_MAX; count += 1) {
      const result = await accrueDay(db, day, options);
      results.push(result);
      if (result.isPartial) break;
      day = addDays(day, 1);
    }
    return results;
  }

  /**
   * Pay the interest accrued before `month` (YYYY-MM, default: this Hong Kong month) to every
   * current holding as new current-fund shares, on or after the month's first Hong Kong business
   * day and once every day before the month is accrued (`fund_accrual_days`; before that it
   * answers null and a later run pays) — in id batches, each one transaction:
   * 1. one statement takes each holding's unpaid interest of the earlier months and marks the
   *    holding paid for `month` (a holding already marked is skipped, so two processes or a rerun
   *    pay once), adds the shares, keeps the amount (`last_payout_minor`) and the owner's USER_FUND
   *    account id (`ledger_account_id`, looked up the first time), and — being the `rows` of
   *    `postFanout`, inside its one statement — posts one journal entry per batch (accrued interest
   *    → each user's USER_FUND, credited through the account id; key
   *    `fund-payout:<month>:<first id>-<end id>`);
   * 2. one `fund_payout_batches` row: the holdings' INTEREST history lines are read from it, not
   *    written per holding (`funds.orders.ts`).
   * The month is recorded as paid (`fund_payouts`) after the last batch. With `connections` > 1 (a
   * pooled PostgreSQL `Db`) that many batches run at once, each in its own transaction.
   */
  async function runPayout(db: DbOrTx, options: PayoutOptions = {}): Promise<PayoutResult | null> {
    const today = hongKongDay(ctx.clock.now());
    const month = options.month ?? monthOf(today);
    const paidOn = firstBusinessDay(month, ctx.calendar);
    if (today < paidOn) return null;
    const [state] = await queryRows<{ paid: string | null; accrued: string | null }>(
      db,
      sql`SELECT (SELECT month FROM fund_payouts WHERE month = ${month}) AS paid,
                 (SELECT max(day)::text FROM fund_accrual_days) AS accrued`,
    );
    if (state?.paid) return null;
    // Each payout pays exactly the accruals of the days before its month (the history relies on it).
    const lastDayBefore = addDays(`${month}-01`, -1);
    if (!state?.accrued || state.accrued < lastDayBefore) return null;
    const batchSize = options.batchSize ?? FUND_BATCH_HOLDINGS_DEFAULT;
    const range = idRangeOf(
      await queryRows<{ lo: string | null; hi: string | null }>(
        db,
        sql`SELECT min(id)::text AS lo, max(id)::text AS hi FROM fund_holdings WHERE kind = 'CURRENT'`,
      ),
    );
    const payable = sql`(fund_holdings.unsettled_minor - CASE WHEN fund_holdings.accrual_month >= ${month} THEN fund_holdings.unsettled_month_minor ELSE 0 END)`;
    const set = holdingDeltaSet(payable, today);
    const now = ctx.clock.now();
    const result: PayoutResult = { month, paidOn: today, holdingCount: 0, totalMinor: 0n, isPartial: false };
    /** Pay the holdings with ids in [lo, lo + batchSize): one transaction. */
    const payBatch = (lo: number) => {
      const hi = lo + batchSize;
      return db.transaction(async (tx) => {
        // ONE single-table UPDATE over the batch's id range (an index range scan: rows are locked in id
        // order, so two processes paying at once wait for each other and never deadlock; the one that
        // waited re-checks `last_payout_month` on the updated row and skips it). No join and no separate
        // locking pass: each holding row is read and written once. It is the fanout's rows: it runs
        // inside postFanout's one statement, which credits each owner what the update returned, in
        // the account whose id the holding keeps (`ledger_account_id`: looked up by owner the first
        // time a holding is paid, then kept, so later payouts probe the accounts' primary key).
        const posted = await postFanout(tx, {
          kind: 'FUND_INTEREST',
          reference: `fund-payout:${month}`,
          idempotencyKey: `fund-payout:${month}:${lo}-${hi}`,
          source: platformAccount('PLATFORM_FUND_ACCRUED_INTEREST', 'USD') as ReturnType<typeof platformAccount> & {
            ownerKind: 'platform';
          },
          destinationType: 'USER_FUND',
          asset: 'USD',
          metadata: { month, firstHoldingId: String(lo) },
          rows: sql`UPDATE fund_holdings SET
                prev_day_date = ${set.prevDayDate},
                prev_day_min_shares_minor = ${set.prevDayMinSharesMinor},
                day_start_shares_minor = ${set.dayStartSharesMinor},
                day_min_shares_minor = ${set.dayMinSharesMinor},
                day_start_date = ${set.dayStartDate},
                shares_minor = ${set.sharesMinor},
                unsettled_minor = fund_holdings.unsettled_minor - ${payable},
                paid_minor = fund_holdings.paid_minor + ${payable},
                last_payout_month = ${month},
                last_payout_minor = ${payable},
                ledger_account_id = COALESCE(fund_holdings.ledger_account_id, (SELECT a.id FROM ledger_accounts a
                  WHERE a.owner_kind = 'user' AND a.owner_id = fund_holdings.user_id AND a.type = 'USER_FUND' AND a.asset = 'USD'))
              WHERE fund_holdings.kind = 'CURRENT' AND fund_holdings.id >= ${lo} AND fund_holdings.id < ${hi}
                AND (fund_holdings.last_payout_month IS NULL OR fund_holdings.last_payout_month < ${month})
                AND ${payable} > 0
              RETURNING fund_holdings.user_id, fund_holdings.last_payout_minor, fund_holdings.ledger_account_id`,
        });
        if (posted.isReplay) throw new Error(`fund payout ${month} batch ${lo} was posted already`);
        if (posted.entryId !== null) {
          await tx.execute(
            sql`INSERT INTO fund_payout_batches (month, first_holding_id, end_holding_id, holding_count, total_minor, entry_id, paid_at)
                VALUES (${month}, ${lo}, ${hi}, ${posted.rowCount}, ${posted.totalMinor.toString()}::numeric, ${posted.entryId},
                        ${now.toISOString()}::timestamptz)`,
          );
        }
        return posted;
      });
    };
    const startedMs = performance.now(); // elapsed time for the log: the monotonic clock
    const { isPartial } = await runBatches(batchStartsOf(range, batchSize), options, payBatch, (lo, paid) => {
      result.holdingCount += paid.rowCount;
      result.totalMinor += paid.totalMinor;
      ctx.log.info(
        {
          month,
          firstHoldingId: lo,
          holdings: paid.rowCount,
          totalUsd: usd(paid.totalMinor),
          elapsedMs: Math.round(performance.now() - startedMs),
        },
        'fund payout batch',
      );
    });
    result.isPartial = isPartial;
    if (result.isPartial) return result;
    await db.execute(
      sql`INSERT INTO fund_payouts (month, paid_on, holding_count, total_minor)
          VALUES (${month}, ${today}, ${result.holdingCount}, ${result.totalMinor.toString()}::numeric) ON CONFLICT DO NOTHING`,
    );
    return result;
  }

  /**
   * Roll every fixed order maturing on or before today (Hong Kong) into the current fund, in
   * batches of 64: one statement marks the batch MATURED (a matured order is never taken again),
   * one adds principal + interest to each owner's current holding, one writes the history lines,
   * and one ledger statement posts one entry per order (principal USER_FUND_FIXED → USER_FUND,
   * interest accrued interest → USER_FUND; key `fund-maturity:<order id>`). The interest paid is the
   * order's whole cents (`unsettled_minor`: floor of its exact accrual); its carry, below one cent,
   * is not paid and stays on the matured row (rounded down once per order: decision 0008). Only
   * orders whose last interest day has been accrued are taken. Each owner gets a message after the
   * commit.
   */
  async function runMaturities(db: DbOrTx): Promise<number> {
    const today = hongKongDay(ctx.clock.now());
    const [state] = await queryRows<{ last: string | null }>(
      db,
      sql`SELECT max(day)::text AS last FROM fund_accrual_days`,
    );
    const accruedThrough = state?.last ?? '1970-01-01';
    let matured = 0;
    for (let round = 0; round < 10_000; round += 1) {
      const now = ctx.clock.now();
      const batch = await db.transaction(async (tx): Promise<MaturedOrder[]> => {
        const rows = await queryRows<{
          id: string;
          user_id: string;
          order_id: string;
          product_id: string;
          principal: string;
          interest: string;
        }>(
          tx,
          sql`WITH p AS (
                SELECT id, shares_minor AS principal, unsettled_minor AS interest FROM fund_holdings
                WHERE kind = 'FIXED' AND status = 'HOLDING' AND maturity_date <= ${today}::date
                  AND maturity_date - 1 <= ${accruedThrough}::date
                ORDER BY maturity_date, id LIMIT ${MATURITY_BATCH} FOR UPDATE
              )
              UPDATE fund_holdings SET status = 'MATURED', unsettled_minor = 0, unsettled_month_minor = 0,
                paid_minor = fund_holdings.paid_minor + p.interest
              FROM p WHERE fund_holdings.id = p.id AND fund_holdings.status = 'HOLDING'
              RETURNING fund_holdings.id::text, fund_holdings.user_id, fund_holdings.order_id::text, fund_holdings.product_id,
                p.principal::text AS principal, p.interest::text AS interest`,
        );
        if (rows.length === 0) return [];
        const credit = holdingDeltaSet(sql`c.amount`, today);
        const values = sql.join(
          rows.map(
            (row) => sql`(${row.user_id}, ${(BigInt(row.principal) + BigInt(row.interest)).toString()}::numeric)`,
          ),
          sql`, `,
        );
        await tx.execute(
          sql`INSERT INTO fund_holdings (user_id, product_id, kind, day_start_date, created_at)
              SELECT DISTINCT v.user_id, ${CURRENT_PRODUCT_ID}, 'CURRENT', ${today}::date, ${now.toISOString()}::timestamptz FROM (VALUES ${values}) AS v(user_id, amount)
              ON CONFLICT DO NOTHING`,
        );
        await tx.execute(
          sql`WITH c AS (SELECT v.user_id, sum(v.amount) AS amount FROM (VALUES ${values}) AS v(user_id, amount) GROUP BY v.user_id)
              UPDATE fund_holdings SET
                prev_day_date = ${credit.prevDayDate},
                prev_day_min_shares_minor = ${credit.prevDayMinSharesMinor},
                day_start_shares_minor = ${credit.dayStartSharesMinor},
                day_min_shares_minor = ${credit.dayMinSharesMinor},
                day_start_date = ${credit.dayStartDate},
                shares_minor = ${credit.sharesMinor}
              FROM c WHERE fund_holdings.kind = 'CURRENT' AND fund_holdings.user_id = c.user_id`,
        );
        const orderIds = rows.map((row) => sql`${row.order_id}::bigint`);
        await tx.execute(sql`UPDATE fund_orders SET status = 'MATURED' WHERE id IN (${sql.join(orderIds, sql`, `)})`);
        await tx.execute(
          sql`INSERT INTO fund_orders (user_id, product_id, action, amount_minor, interest_minor, status, holding_id, completed_at, created_at)
              VALUES ${sql.join(
                rows.map(
                  (row) =>
                    sql`(${row.user_id}, ${row.product_id}, 'MATURITY', ${row.principal}::numeric, ${row.interest}::numeric, 'SUCCESS', ${row.id}::bigint, ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz)`,
                ),
                sql`, `,
              )}`,
        );
        const entries: EntryInput[] = rows.map((row) => {
          const principal = BigInt(row.principal);
          const interest = BigInt(row.interest);
          const postings: PostingInput[] = [
            ...transfer(
              userAccount(row.user_id, 'USER_FUND_FIXED', 'USD'),
              userAccount(row.user_id, 'USER_FUND', 'USD'),
              principal,
            ),
            ...(interest > 0n
              ? transfer(
                  platformAccount('PLATFORM_FUND_ACCRUED_INTEREST', 'USD'),
                  userAccount(row.user_id, 'USER_FUND', 'USD'),
                  interest,
                )
              : []),
          ];
          return {
            kind: 'FUND_MATURITY',
            reference: `fund-order:${row.order_id}`,
            idempotencyKey: `fund-maturity:${row.order_id}`,
            postings,
            metadata: { productId: row.product_id },
          };
        });
        const outcomes = await postEntries(tx, entries);
        const failed = outcomes.find((outcome) => outcome instanceof Error);
        if (failed) throw failed;
        return rows.map((row) => ({
          userId: row.user_id,
          productId: row.product_id,
          principalMinor: BigInt(row.principal),
          interestMinor: BigInt(row.interest),
        }));
      });
      if (batch.length === 0) break;
      matured += batch.length;
      ctx.log.info({ day: today, orders: batch.length, matured }, 'fund maturity batch');
      await tellMatured(db, batch);
    }
    return matured;
  }

  async function tellMatured(db: DbOrTx, orders: MaturedOrder[]): Promise<void> {
    const products = new Map(
      (await db.select().from(fundProducts)).map((p) => [
        p.id,
        { 'en-US': p.nameEn, 'zh-HK': p.nameZhHk } as Record<Locale, string>,
      ]),
    );
    for (const order of orders) {
      await ctx.notifier
        .fixedMatured(
          order.userId,
          products.get(order.productId) ?? { 'en-US': order.productId, 'zh-HK': order.productId },
          usd(order.principalMinor),
          usd(order.interestMinor),
          db,
        )
        .catch((error: unknown) => ctx.log.warn({ err: error, userId: order.userId }, 'fund maturity message failed'));
    }
  }

  return {
    accrueDay,
    runAccrual,
    runPayout,
    runMaturities,

    /**
     * The funds' daily work, run by the scheduler's leader each hour (so at 00:00 Hong Kong time
     * the first run of the day happens): accrue every finished day, mature the orders due, then
     * the month's payout when it is due (unless `isPayoutSeparate`: on PostgreSQL the `funds.payout`
     * job pays, on several connections). With `accrualPool` (PostgreSQL) the accrual's batches run on
     * that pool, `connections` at once, each committed on its own, while `db` (the job's transaction,
     * which holds the job's lock and touches no holding before) waits; maturities and the payout run
     * in `db`. Each step is idempotent, so later runs of the day find nothing to do.
     */
    async runDaily(db: DbOrTx = ctx.db, options: DailyOptions = {}): Promise<void> {
      const { accrualPool, isPayoutSeparate, ...batchOptions } = options;
      await runAccrual(
        accrualPool?.db ?? db,
        accrualPool ? { ...batchOptions, connections: accrualPool.connections } : batchOptions,
      );
      await runMaturities(db);
      if (!isPayoutSeparate) await runPayout(db, batchOptions);
    },
  };
}
