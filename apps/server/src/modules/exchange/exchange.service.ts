import { randomUUID } from 'node:crypto';
import type {
  ExchangeQuote,
  ParsedExchangeRateQuery,
  ParsedFlashExchangeRequest,
  SwapListQuery,
  SwapRecord,
} from '@meridian/contracts/exchange';
import type { MarketCoinCode } from '@meridian/contracts/market';
import type { Page } from '@meridian/contracts/pagination';
import { totalPages } from '@meridian/contracts/pagination';
import { and, count, desc, eq, gte, lte, or, type SQL, sql } from 'drizzle-orm';
import { createWriteBatcher } from '../../platform/db/batcher.ts';
import { REQUEST_HASH_IN_STORE, type SettleAnswer } from '../../platform/db/idempotency.ts';
import { isSqlState, SQLSTATE_UNIQUE_VIOLATION } from '../../platform/db/sql-state.ts';
import type { Db, DbOrTx } from '../../platform/db/client.ts';
import type { JobDefinition } from '../../platform/jobs/scheduler.ts';
import { DomainError } from '../../platform/http/errors.ts';
import type { Clock } from '../../platform/clock/clock.ts';
import { PriceDecimal } from '../../platform/prices/types.ts';
import { ENTRIES_PER_BATCH_MAX } from '../ledger/ledger.service.ts';
import type { MarketPrices } from '../market/market.service.ts';
import {
  BPS,
  createPairSettingsStore,
  insertQuotes,
  type NewQuoteRow,
  type PairSettings,
  type PairSettingsRow,
  type PairSettingsStore,
  priceQuote,
  quoteRow,
  toQuote,
} from './exchange.pricing.ts';
import {
  createSwapExecutor,
  type ExchangeAccounts,
  type SwapMessageWriter,
  type SwapRequest,
  toRecord,
} from './exchange.swaps.ts';
import { exchangeQuotes } from './exchange.tables.ts';

export type { PairSettings, PairSettingsRow } from './exchange.pricing.ts';
export {
  type CompletedSwap,
  EXCHANGE_INVENTORY_SHARDS,
  type ExchangeAccounts,
  inventoryShard,
  type SwapMessageWriter,
} from './exchange.swaps.ts';

/** Quotes never executed are deleted this long after they expired (executed ones are the swap history). */
const UNUSED_QUOTE_RETENTION_MS = 86_400_000;
/** Rows the pruning job deletes per run. */
const PRUNE_BATCH_ROWS = 10_000;

/** Options of `createExchangeService`. */
export interface ExchangeServiceOptions {
  /** Told when a batch failed as a whole and its swaps were retried one by one. */
  onBatchRetried?: (error: unknown, size: number) => void;
}

/** What the exchange service needs. */
export interface ExchangeServiceDeps extends ExchangeServiceOptions {
  db: Db;
  /** Every quote is priced from them (`MarketPrices.usdPrice`). */
  prices: MarketPrices;
  clock: Clock;
  /** Frozen accounts execute no swap. */
  accounts: ExchangeAccounts;
  /** Writes the swaps' "swap done" messages in their transaction (default: none). */
  writeSwapMessages?: SwapMessageWriter;
}

/**
 * Delete quotes that expired unused more than a day ago, at most `PRUNE_BATCH_ROWS` per call.
 * @returns the number deleted.
 */
async function pruneUnusedQuotes(tx: DbOrTx, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - UNUSED_QUOTE_RETENTION_MS).toISOString();
  const result: unknown = await tx.execute(sql`
    DELETE FROM ${exchangeQuotes} WHERE id IN (
      SELECT id FROM ${exchangeQuotes} WHERE status = 'OPEN' AND expires_at < ${cutoff}::timestamptz LIMIT ${PRUNE_BATCH_ROWS}
    ) RETURNING 1`);
  const rows = (result as { rows?: unknown }).rows;
  return Array.isArray(rows) ? rows.length : 0;
}

/**
 * Coin exchange: firm quotes kept on the server for 10 s, executed exactly once through
 * the ledger against the platform's exchange inventory, and flash exchanges at the live rate with
 * a slippage limit. Every pair is priced through USD (`MarketPrices.usdPrice`); the user receives
 * the rounded-down amount and pays the rounded-up one (docs/architecture.md "Money"). Pricing and quote rows:
 * `exchange.pricing.ts`; claiming and executing swaps: `exchange.swaps.ts`.
 */
export function createExchangeService(deps: ExchangeServiceDeps) {
  const { db, prices, clock, accounts } = deps;
  /** Pair settings, cached for pricing. */
  const pairs: PairSettingsStore = createPairSettingsStore(db);
  /** Executes swaps, alone or in batches. */
  const swaps = createSwapExecutor({
    db,
    clock,
    accounts,
    writeSwapMessages: deps.writeSwapMessages ?? (async () => {}),
    onBatchRetried: deps.onBatchRetried,
  });
  // One batch at a time, growing while the previous one is written: on PostgreSQL too this beat 2
  // and 4 at once under bench:swap (998 / 914 / 811 swaps/s; docs/exchange.md). PGlite is one connection.
  const batching = { batchSizeMax: ENTRIES_PER_BATCH_MAX, concurrentBatchesMax: 1 };
  /** Swap executions of concurrent requests, written in batches (group commit; see `exchange.swaps.ts`). */
  const submitSwap = createWriteBatcher((requests: readonly SwapRequest[]) => swaps.executeBatch(requests), batching);
  /** Quotes of concurrent requests, stored in batches (one multi-row INSERT). */
  const submitQuote = createWriteBatcher((rows: readonly NewQuoteRow[]) => insertQuotes(db, rows), batching);

  return {
    /**
     * Operators: every pair of the market coins (`FROM/TO`, from ≠
     * to) with its settings as they apply (defaults of `exchange.pairs.ts` where none is stored);
     * limits in minor units of the `from` coin (bigint).
     */
    async listPairSettings(on: DbOrTx = db): Promise<PairSettingsRow[]> {
      return pairs.list(on);
    },

    /**
     * Operators: change a pair's switch, spread (basis points) and `from` limits (minor units of the
     * `from` coin); fields left out stay. The caller has checked min ≤ max and that a spread change was
     * approved by a second operator. Forgets the cached settings, so quotes use them at once.
     */
    async updatePairSettings(
      from: MarketCoinCode,
      to: MarketCoinCode,
      patch: Partial<PairSettings>,
      on: DbOrTx = db,
    ): Promise<PairSettingsRow> {
      return pairs.update(from, to, patch, on);
    },

    /** Operators (and tests): switch a pair on or off, or change its spread. */
    async configurePair(
      from: MarketCoinCode,
      to: MarketCoinCode,
      settings: { isEnabled?: boolean; spreadBps?: number },
    ): Promise<void> {
      return pairs.configure(from, to, settings);
    },

    /** `GET exchange/rate`: a firm quote for `userId`, valid 10 s. */
    async quote(userId: string, request: ParsedExchangeRateQuery): Promise<ExchangeQuote> {
      const priced = await priceQuote(pairs, prices, request);
      return toQuote(await submitQuote(quoteRow(clock.now(), userId, 'SWAP', priced, randomUUID())));
    },

    /**
     * `POST exchange/swap`: execute the user's quote exactly once.
     * @throws DomainError QUOTE_EXPIRED (131), NOT_FOUND (another user's or no quote), CONFLICT (used),
     *   INSUFFICIENT_BALANCE (130), SERVICE_UNAVAILABLE (pair switched off), ACCOUNT_FROZEN (152,
     *   answered first) — nothing moves. The freeze is read by the claim itself, in the swap's
     *   transaction (`exchange.swaps.ts`), not by a statement of its own before it.
     *   `settleAnswer` stores the answer in the swap's transaction.
     */
    async swap(userId: string, quoteId: string, settleAnswer?: SettleAnswer): Promise<SwapRecord> {
      return submitSwap({ userId, quoteId, ...(settleAnswer && { settleAnswer }) });
    },

    /**
     * `POST exchange/flash`: quote and execute at the live rate in one transaction, refused when that
     * rate is more than `maxSlippageBps` below `expectedRate`. `requestId` is the call's idempotency
     * key: the route layer's one store answers the same request again with the first result, or
     * CONFLICT (121) when any field differs (docs/api.md "Idempotency"); the quote row's id is the
     * `requestId`, so it never swaps twice, and another user's `requestId` is refused (CONFLICT).
     * A frozen account is refused before anything else. `settleAnswer` stores the answer in the swap's transaction.
     * @throws DomainError SLIPPAGE_EXCEEDED (140) with `{ rate }` when the rate moved too far, and the swap refusals.
     */
    async flash(userId: string, request: ParsedFlashExchangeRequest, settleAnswer?: SettleAnswer): Promise<SwapRecord> {
      await accounts.assertNotFrozen(userId);
      const priced = await priceQuote(pairs, prices, request);
      const floor = new PriceDecimal(request.expectedRate).times(
        new PriceDecimal(BPS - request.maxSlippageBps).div(BPS),
      );
      if (priced.rate.lt(floor)) throw new DomainError('SLIPPAGE_EXCEEDED', {}, { rate: priced.rate.toFixed() });
      try {
        return await db.transaction(async (tx) => {
          await tx.insert(exchangeQuotes).values({
            ...quoteRow(clock.now(), userId, 'FLASH', priced, request.requestId),
            requestHash: REQUEST_HASH_IN_STORE,
          });
          return swaps.execute(tx, userId, request.requestId, settleAnswer);
        });
      } catch (error) {
        // The id is taken: another user's quote or flash with this requestId.
        if (isSqlState(error, SQLSTATE_UNIQUE_VIOLATION))
          throw new DomainError('CONFLICT', {}, { requestId: request.requestId });
        throw error;
      }
    },

    pruneUnusedQuotes,

    /** The exchange's scheduler jobs: prune unused quotes hourly. */
    jobs(): JobDefinition[] {
      return [
        {
          name: 'exchange.prune-quotes',
          periodMs: 3_600_000,
          run: async ({ tx, now }) => void (await pruneUnusedQuotes(tx, now)),
        },
      ];
    },

    /** `GET exchange/swap/list`: the user's executed swaps, newest first, optionally for one coin. */
    async listSwaps(userId: string, query: SwapListQuery): Promise<Page<SwapRecord>> {
      const conditions: SQL[] = [eq(exchangeQuotes.userId, userId), eq(exchangeQuotes.status, 'EXECUTED')];
      if (query.coin)
        conditions.push(or(eq(exchangeQuotes.fromCoin, query.coin), eq(exchangeQuotes.toCoin, query.coin))!);
      if (query.createTime) {
        conditions.push(
          gte(exchangeQuotes.executedAt, new Date(query.createTime[0])),
          lte(exchangeQuotes.executedAt, new Date(query.createTime[1])),
        );
      }
      const where = and(...conditions);
      const [total] = await db.select({ n: count() }).from(exchangeQuotes).where(where);
      const rows = await db
        .select()
        .from(exchangeQuotes)
        .where(where)
        .orderBy(desc(exchangeQuotes.executedAt), desc(exchangeQuotes.id))
        .limit(query.pageSize)
        .offset((query.pageID - 1) * query.pageSize);
      const totalCount = total?.n ?? 0;
      return {
        list: rows.map(toRecord),
        pageID: query.pageID,
        pageSize: query.pageSize,
        totalPage: totalPages(totalCount, query.pageSize),
        totalCount,
      };
    },

    // -------------------------------------------------------------- back office

    /**
     * Swaps and flash exchanges executed in [`from`, `to`), per asset paid (`from` coin): count and
     * amount paid in minor units. For the back-office dashboard's day.
     */
    async swapTotalsBetween(from: Date, to: Date): Promise<{ asset: string; count: number; amountMinor: bigint }[]> {
      const rows = await db
        .select({
          asset: exchangeQuotes.fromCoin,
          count: count(),
          amountMinor: sql<string>`sum(${exchangeQuotes.fromAmountMinor})::text`,
        })
        .from(exchangeQuotes)
        .where(
          and(
            eq(exchangeQuotes.status, 'EXECUTED'),
            gte(exchangeQuotes.executedAt, from),
            sql`${exchangeQuotes.executedAt} < ${to}`,
          ),
        )
        .groupBy(exchangeQuotes.fromCoin)
        .orderBy(exchangeQuotes.fromCoin);
      return rows.map((row) => ({ asset: row.asset, count: Number(row.count), amountMinor: BigInt(row.amountMinor) }));
    },
  };
}

/** The exchange service's type (`createExchangeService`). */
export type ExchangeService = ReturnType<typeof createExchangeService>;
