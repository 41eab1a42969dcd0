import { randomUUID } from 'node:crypto';
import type {
  ExchangeQuote,
  ParsedExchangeRateQuery,
  ParsedFlashExchangeRequest,
  SwapListQuery,
  SwapRecord,
} from '@meridian/contracts/exchange';
import { QUOTE_TTL_MS } from '@meridian/contracts/exchange';
import { MARKET_COIN_CODES, type MarketCoinCode } from '@meridian/contracts/market';
import { ASSET_PRECISION, toDecimalString } from '@meridian/contracts/money';
import { formatMoney } from '@meridian/contracts/money-format';
import type { Page } from '@meridian/contracts/pagination';
import { totalPages } from '@meridian/contracts/pagination';
import { and, count, desc, eq, gte, inArray, lte, or, type SQL, sql } from 'drizzle-orm';
import { createWriteBatcher } from '../../platform/db/batcher.ts';
import { REQUEST_HASH_IN_STORE, type SettleAnswer } from '../../platform/db/idempotency.ts';
import { isSqlState, SQLSTATE_UNIQUE_VIOLATION } from '../../platform/db/sql-state.ts';
import type { Db, DbOrTx, Tx } from '../../platform/db/client.ts';
import { pgArrayLiteral } from '../../platform/db/pg-array.ts';
import { queryRows, rowOfTable } from '../../platform/db/rows.ts';
import type { JobDefinition } from '../../platform/jobs/scheduler.ts';
import { DomainError, FieldError } from '../../platform/http/errors.ts';
import type { Clock } from '../../platform/clock/clock.ts';
import { PriceDecimal } from '../../platform/prices/types.ts';
import { ENTRIES_PER_BATCH_MAX, postEntries, postEntry } from '../ledger/ledger.service.ts';
import { type EntryInput, platformAccount, userAccount } from '../ledger/ledger.types.ts';
import type { MarketPrices } from '../market/market.service.ts';
import { defaultSpreadBps, ORDER_LIMITS_MINOR, pairKey } from './exchange.pairs.ts';
import { exchangePairs, exchangeQuotes } from './exchange.tables.ts';

/** Significant digits of a quoted rate; the rate is cut (never rounded up) to them. */
const RATE_SIGNIFICANT_DIGITS = 12;
/** Quotes never executed are deleted this long after they expired (executed ones are the swap history). */
const UNUSED_QUOTE_RETENTION_MS = 86_400_000;
/** Rows the pruning job deletes per run. */
const PRUNE_BATCH_ROWS = 10_000;
const BPS = 10_000;
/**
 * Shards of each asset's exchange inventory account. Every swap touches the inventory of both its
 * coins; with one row per asset, concurrent swaps of a pair would queue on those two row locks
 * until each commit. A swap uses the shard its quote id picks, so concurrent swaps lock different
 * rows; the desk's inventory of an asset is the sum of its shards (docs/exchange.md).
 */
export const EXCHANGE_INVENTORY_SHARDS = 16;

/** The inventory shard of a quote: its UUID's first 32 bits modulo the shard count. */
export function inventoryShard(quoteId: string): number {
  const prefix = Number.parseInt(quoteId.slice(0, 8), 16);
  return Number.isNaN(prefix) ? 0 : prefix % EXCHANGE_INVENTORY_SHARDS;
}

type QuoteRow = typeof exchangeQuotes.$inferSelect;
/** A quote about to be stored: every column the INSERT writes. */
type NewQuoteRow = Omit<QuoteRow, 'status' | 'executedAt'>;

/** A swap that committed, for its "swap done" message. */
export interface CompletedSwap {
  userId: string;
  swap: SwapRecord;
}

/**
 * Writes the "swap done" messages of swaps inside the transaction that executes them, so
 * a swap and its message commit together or not at all.
 */
export type SwapMessageWriter = (tx: DbOrTx, swaps: readonly CompletedSwap[]) => Promise<void>;

/** What the exchange needs of the identity module (its service satisfies this). */
export interface ExchangeAccounts {
  /**
   * Refuse money movement of a frozen account, read on `db` (the caller's transaction
   * when given). @throws DomainError ACCOUNT_FROZEN (152).
   */
  assertNotFrozen(userId: string, db?: DbOrTx): Promise<void>;
}

/** Options of `ExchangeService`. */
export interface ExchangeServiceOptions {
  /** Told when a batch failed as a whole and its swaps were retried one by one. */
  onBatchRetried?: (error: unknown, size: number) => void;
}

/** A swap request waiting for its batch. */
interface SwapRequest {
  userId: string;
  quoteId: string;
  /** Stores the request's answer in the transaction that executes it (docs/api.md "Idempotency"). */
  settleAnswer?: SettleAnswer;
}

/**
 * How long a process reuses a pair's settings for pricing quotes. Executing a swap always reads the
 * live setting inside its transaction, so a pair switched off on another instance stops swaps at
 * once and can at most still be quoted for this long.
 */
const PAIR_SETTINGS_TTL_MS = 1_000;

/** A pair's effective settings (the defaults with the operator's overrides): switch, spread (basis points), `from` limits (minor units of the `from` coin). */
export interface PairSettings {
  isEnabled: boolean;
  spreadBps: number;
  fromMinMinor: bigint;
  fromMaxMinor: bigint;
}

/** A pair's settings with its key (`FROM/TO`) and coins (operators' list). */
export interface PairSettingsRow extends PairSettings {
  pair: string;
  from: MarketCoinCode;
  to: MarketCoinCode;
}

/** A priced but not yet stored quote. */
interface PricedQuote {
  from: MarketCoinCode;
  to: MarketCoinCode;
  side: 'from' | 'to';
  fromAmountMinor: bigint;
  toAmountMinor: bigint;
  rate: PriceDecimal;
  spreadBps: number;
  fromPriceUsd: PriceDecimal;
  toPriceUsd: PriceDecimal;
}

/** `amount` minor units of `coin` as an exact decimal of whole coins. */
function toCoins(amountMinor: bigint, coin: MarketCoinCode): PriceDecimal {
  return new PriceDecimal(toDecimalString(amountMinor, coin));
}

/** Whole coins to minor units, rounding as named (never a float). */
function toMinor(coins: PriceDecimal, coin: MarketCoinCode, rounding: 'down' | 'up'): bigint {
  const scaled = coins.times(new PriceDecimal(10).pow(ASSET_PRECISION[coin]));
  return BigInt((rounding === 'down' ? scaled.floor() : scaled.ceil()).toFixed(0));
}

function toRecord(row: QuoteRow): SwapRecord {
  return {
    swapId: row.id,
    kind: row.kind,
    from: row.fromCoin as MarketCoinCode,
    to: row.toCoin as MarketCoinCode,
    fromAmount: toDecimalString(row.fromAmountMinor, row.fromCoin as MarketCoinCode),
    toAmount: toDecimalString(row.toAmountMinor, row.toCoin as MarketCoinCode),
    rate: new PriceDecimal(row.rate).toFixed(),
    executedAt: (row.executedAt ?? row.createdAt).toISOString(),
  };
}

/** An `Error` for a batch answer (anything thrown that is not one is wrapped). */
function toError(failure: unknown): Error {
  return failure instanceof Error ? failure : new Error(String(failure));
}

/**
 * Why a quote could not be claimed for `userId` at `now` (the claiming UPDATE matched nothing).
 * Another user's quote answers like a missing one, so quote ids reveal nothing.
 */
function claimRefusal(existing: QuoteRow | undefined, userId: string, now: Date): DomainError {
  if (!existing || existing.userId !== userId) return new DomainError('NOT_FOUND');
  if (existing.status === 'EXECUTED') return new DomainError('CONFLICT', {}, { quoteId: existing.id });
  if (existing.expiresAt.getTime() <= now.getTime()) return new DomainError('QUOTE_EXPIRED');
  return new DomainError('SERVICE_UNAVAILABLE');
}

/**
 * Claim quotes (`exchange_claim_quotes`, migration 0013): each requested quote that is the caller's,
 * OPEN, not expired at `now` and of a pair not switched off becomes EXECUTED at `now`, in one
 * statement, so concurrent claims of one quote execute it once. Pass `requests` sorted by quote id
 * (concurrent batches then lock quote rows in one order).
 * @returns the claimed rows (possibly fewer than requested), as a `select()` would map them.
 */
async function claimQuotes(
  tx: Tx,
  requests: readonly { quoteId: string; userId: string }[],
  now: Date,
): Promise<QuoteRow[]> {
  const rows = await queryRows(
    tx,
    sql`SELECT * FROM exchange_claim_quotes(${pgArrayLiteral(requests.map((r) => r.quoteId))}::uuid[], ${pgArrayLiteral(requests.map((r) => r.userId))}::text[], ${now.toISOString()}::timestamptz)`,
  );
  return rows.map((row) => rowOfTable(exchangeQuotes, row));
}

/**
 * The ledger entry of a claimed quote: user `from` → inventory shard `from`, inventory shard `to`
 * → user `to` (kind EXCHANGE_SWAP, idempotency key `swap:<quoteId>`).
 */
function swapEntry(quote: QuoteRow, shard: number): EntryInput {
  const from = quote.fromCoin as MarketCoinCode;
  const to = quote.toCoin as MarketCoinCode;
  return {
    kind: 'EXCHANGE_SWAP',
    reference: `swap:${quote.id}`,
    idempotencyKey: `swap:${quote.id}`,
    postings: [
      { account: userAccount(quote.userId, 'USER_AVAILABLE', from), amountMinor: -quote.fromAmountMinor },
      { account: platformAccount('EXCHANGE_INVENTORY', from, shard), amountMinor: quote.fromAmountMinor },
      { account: platformAccount('EXCHANGE_INVENTORY', to, shard), amountMinor: -quote.toAmountMinor },
      { account: userAccount(quote.userId, 'USER_AVAILABLE', to), amountMinor: quote.toAmountMinor },
    ],
    metadata: { quoteId: quote.id, rate: quote.rate, kind: quote.kind },
  };
}

/**
 * Coin exchange: firm quotes kept on the server for 10 s, executed exactly once through
 * the ledger against the platform's exchange inventory, and flash exchanges at the live rate with
 * a slippage limit. Every pair is priced through USD (`MarketPrices.usdPrice`); the user receives
 * the rounded-down amount and pays the rounded-up one (ARCHITECTURE §4).
 */
export class ExchangeService {
  /** Pair settings read recently, for pricing (see `PAIR_SETTINGS_TTL_MS`); at most one per pair. */
  private readonly pairCache = new Map<string, { settings: PairSettings; readAtMs: number }>();

  /** Swap executions of concurrent requests, written in batches (group commit; see `executeBatch`). */
  private readonly submitSwap: (request: SwapRequest) => Promise<SwapRecord>;
  /** Quotes of concurrent requests, stored in batches (one multi-row INSERT). */
  private readonly submitQuote: (row: NewQuoteRow) => Promise<QuoteRow>;
  /** The inventory shard of the next swap batch: rotating, so concurrent batches lock different rows. */
  private nextShard = Math.floor(Math.random() * EXCHANGE_INVENTORY_SHARDS);

  constructor(
    private readonly db: Db,
    private readonly prices: MarketPrices,
    private readonly clock: Clock,
    /** Frozen accounts execute no swap. */
    private readonly accounts: ExchangeAccounts,
    /** Writes the swaps' "swap done" messages in their transaction. */
    private readonly writeSwapMessages: SwapMessageWriter = async () => {},
    private readonly options: ExchangeServiceOptions = {},
  ) {
    // One batch at a time, growing while the previous one is written: on PostgreSQL too this beat 2
    // and 4 at once under bench:swap (998 / 914 / 811 swaps/s; docs/exchange.md). PGlite is one connection.
    const batching = { batchSizeMax: ENTRIES_PER_BATCH_MAX, concurrentBatchesMax: 1 };
    this.submitSwap = createWriteBatcher((requests) => this.executeBatch(requests), batching);
    this.submitQuote = createWriteBatcher((rows) => this.insertQuotes(rows), batching);
  }

  /** The pair's settings, reused for `PAIR_SETTINGS_TTL_MS` (quotes are priced on them). */
  private async cachedPairSettings(from: MarketCoinCode, to: MarketCoinCode): Promise<PairSettings> {
    const key = pairKey(from, to);
    const cached = this.pairCache.get(key);
    const nowMs = performance.now();
    if (cached && nowMs - cached.readAtMs < PAIR_SETTINGS_TTL_MS) return cached.settings;
    const settings = await this.pairSettings(this.db, from, to);
    this.pairCache.set(key, { settings, readAtMs: nowMs });
    return settings;
  }

  /** The pair's settings. */
  private async pairSettings(db: DbOrTx, from: MarketCoinCode, to: MarketCoinCode): Promise<PairSettings> {
    const [row] = await db
      .select()
      .from(exchangePairs)
      .where(eq(exchangePairs.pair, pairKey(from, to)));
    const limits = ORDER_LIMITS_MINOR[from];
    return {
      isEnabled: row?.isEnabled ?? true,
      spreadBps: row?.spreadBps ?? defaultSpreadBps(from, to),
      fromMinMinor: row?.fromMinMinor ?? limits.minMinor,
      fromMaxMinor: row?.fromMaxMinor ?? limits.maxMinor,
    };
  }

  /**
   * Operators: every pair of the market coins (`FROM/TO`, from ≠
   * to) with its settings as they apply (defaults of `exchange.pairs.ts` where none is stored);
   * limits in minor units of the `from` coin (bigint).
   */
  async listPairSettings(db: DbOrTx = this.db): Promise<PairSettingsRow[]> {
    const rows: PairSettingsRow[] = [];
    for (const from of MARKET_COIN_CODES)
      for (const to of MARKET_COIN_CODES)
        if (from !== to) rows.push({ pair: pairKey(from, to), from, to, ...(await this.pairSettings(db, from, to)) });
    return rows;
  }

  /**
   * Operators: change a pair's switch, spread (basis points) and `from` limits (minor units of the
   * `from` coin); fields left out stay. The caller has checked min ≤ max and that a spread change was
   * approved by a second operator. Forgets the cached settings, so quotes use them at once.
   */
  async updatePairSettings(
    from: MarketCoinCode,
    to: MarketCoinCode,
    patch: Partial<PairSettings>,
    db: DbOrTx = this.db,
  ): Promise<PairSettingsRow> {
    const set = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));
    this.pairCache.delete(pairKey(from, to));
    await db
      .insert(exchangePairs)
      .values({ pair: pairKey(from, to), ...set })
      .onConflictDoUpdate({
        target: exchangePairs.pair,
        set: Object.keys(set).length > 0 ? set : { pair: pairKey(from, to) },
      });
    this.pairCache.delete(pairKey(from, to));
    return { pair: pairKey(from, to), from, to, ...(await this.pairSettings(db, from, to)) };
  }

  /** Operators (and tests): switch a pair on or off, or change its spread. */
  async configurePair(
    from: MarketCoinCode,
    to: MarketCoinCode,
    settings: { isEnabled?: boolean; spreadBps?: number },
  ): Promise<void> {
    this.pairCache.delete(pairKey(from, to));
    await this.db
      .insert(exchangePairs)
      .values({ pair: pairKey(from, to), isEnabled: settings.isEnabled ?? true, spreadBps: settings.spreadBps ?? null })
      .onConflictDoUpdate({
        target: exchangePairs.pair,
        set: {
          ...(settings.isEnabled !== undefined ? { isEnabled: settings.isEnabled } : {}),
          ...(settings.spreadBps !== undefined ? { spreadBps: settings.spreadBps } : {}),
        },
      });
  }

  /**
   * Price `request` at the live USD prices: rate = price(from) / price(to) × (1 − spread), cut to 12
   * significant digits; the other side's amount follows from the rate (received: rounded down;
   * paid: rounded up).
   * @throws DomainError SERVICE_UNAVAILABLE (pair off), AMOUNT_BELOW_MIN, AMOUNT_ABOVE_MAX, PRICE_UNAVAILABLE.
   * The amount (`amountMinor`, of the side's coin) was read and checked by the contract.
   */
  private async price(
    request: Pick<ParsedExchangeRateQuery, 'from' | 'to' | 'amountMinor' | 'side'>,
  ): Promise<PricedQuote> {
    const { from, to, side } = request;
    // The contracts refuse it at the edge too; in-process callers get the same answer.
    if (from === to) throw new FieldError('to', 'validation.sameCoin');
    const pair = await this.cachedPairSettings(from, to);
    if (!pair.isEnabled) throw new DomainError('SERVICE_UNAVAILABLE');
    const { amountMinor } = request;
    const [fromPrice, toPrice] = await Promise.all([this.prices.usdPrice(from), this.prices.usdPrice(to)]);
    const mid = fromPrice.priceUsd.div(toPrice.priceUsd);
    const rate = mid
      .times(new PriceDecimal(BPS - pair.spreadBps).div(BPS))
      .toSignificantDigits(RATE_SIGNIFICANT_DIGITS, PriceDecimal.ROUND_DOWN);
    const fromAmountMinor = side === 'from' ? amountMinor : toMinor(toCoins(amountMinor, to).div(rate), from, 'up');
    const toAmountMinor = side === 'to' ? amountMinor : toMinor(toCoins(amountMinor, from).times(rate), to, 'down');
    if (fromAmountMinor < pair.fromMinMinor || toAmountMinor <= 0n) {
      throw new DomainError('AMOUNT_BELOW_MIN', {
        amount: formatMoney(pair.fromMinMinor, from, { unit: 'none', rounding: 'up' }),
        unit: from,
      });
    }
    if (fromAmountMinor > pair.fromMaxMinor) {
      throw new DomainError('AMOUNT_ABOVE_MAX', {
        amount: formatMoney(pair.fromMaxMinor, from, { unit: 'none', rounding: 'down' }),
        unit: from,
      });
    }
    return {
      from,
      to,
      side,
      fromAmountMinor,
      toAmountMinor,
      rate,
      spreadBps: pair.spreadBps,
      fromPriceUsd: fromPrice.priceUsd,
      toPriceUsd: toPrice.priceUsd,
    };
  }

  private toQuote(row: QuoteRow): ExchangeQuote {
    return {
      quoteId: row.id,
      from: row.fromCoin as MarketCoinCode,
      to: row.toCoin as MarketCoinCode,
      side: row.side,
      rate: new PriceDecimal(row.rate).toFixed(),
      spreadBps: row.spreadBps,
      fromAmount: toDecimalString(row.fromAmountMinor, row.fromCoin as MarketCoinCode),
      toAmount: toDecimalString(row.toAmountMinor, row.toCoin as MarketCoinCode),
      expiresAt: row.expiresAt.toISOString(),
    };
  }

  /** The stored row of a new quote for `userId`, valid `QUOTE_TTL_MS` from now. */
  private quoteRow(userId: string, kind: 'SWAP' | 'FLASH', priced: PricedQuote, id: string): NewQuoteRow {
    const now = this.clock.now();
    return {
      id,
      userId,
      kind,
      fromCoin: priced.from,
      toCoin: priced.to,
      side: priced.side,
      fromAmountMinor: priced.fromAmountMinor,
      toAmountMinor: priced.toAmountMinor,
      rate: priced.rate.toFixed(),
      spreadBps: priced.spreadBps,
      fromPriceUsd: priced.fromPriceUsd.toFixed(),
      toPriceUsd: priced.toPriceUsd.toFixed(),
      expiresAt: new Date(now.getTime() + QUOTE_TTL_MS),
      requestHash: null,
      createdAt: now,
    };
  }

  /**
   * Store a batch of quotes with one INSERT over `unnest` (one parameter per column, whatever the
   * batch size, so the statement text never changes); answers the rows as stored, in order.
   */
  private async insertQuotes(rows: readonly NewQuoteRow[]): Promise<QuoteRow[]> {
    const column = (pick: (row: NewQuoteRow) => string | bigint | number) => pgArrayLiteral(rows.map(pick));
    await this.db.execute(sql`
      INSERT INTO ${exchangeQuotes} (id, user_id, kind, from_coin, to_coin, side, from_amount_minor, to_amount_minor, rate, spread_bps, from_price_usd, to_price_usd, expires_at, created_at)
      SELECT * FROM unnest(
        ${column((r) => r.id)}::uuid[], ${column((r) => r.userId)}::text[], ${column((r) => r.kind)}::text[], ${column((r) => r.fromCoin)}::text[],
        ${column((r) => r.toCoin)}::text[], ${column((r) => r.side)}::text[], ${column((r) => r.fromAmountMinor)}::numeric[], ${column((r) => r.toAmountMinor)}::numeric[],
        ${column((r) => r.rate)}::numeric[], ${column((r) => r.spreadBps)}::int[], ${column((r) => r.fromPriceUsd)}::numeric[], ${column((r) => r.toPriceUsd)}::numeric[],
        ${column((r) => r.expiresAt.toISOString())}::timestamptz[], ${column((r) => r.createdAt.toISOString())}::timestamptz[])`);
    return rows.map((row) => ({ ...row, status: 'OPEN', executedAt: null }));
  }

  /** `GET exchange/rate`: a firm quote for `userId`, valid 10 s. */
  async quote(userId: string, request: ParsedExchangeRateQuery): Promise<ExchangeQuote> {
    const priced = await this.price(request);
    return this.toQuote(await this.submitQuote(this.quoteRow(userId, 'SWAP', priced, randomUUID())));
  }

  /**
   * Claim the quote (`claimQuotes`: OPEN → EXECUTED in one conditional UPDATE, so 20 concurrent
   * calls execute it once) and post the swap entry in the same transaction: user `from` → inventory, inventory `to`
   * → user. A refusal rolls the claim back, so nothing moves and the quote stays usable until it expires.
   * The answer is stored by `settleAnswer` in the same transaction.
   */
  private async execute(tx: Tx, userId: string, quoteId: string, settleAnswer?: SettleAnswer): Promise<SwapRecord> {
    const now = this.clock.now();
    const [claimed] = await claimQuotes(tx, [{ quoteId, userId }], now);
    if (!claimed) {
      const [existing] = await tx.select().from(exchangeQuotes).where(eq(exchangeQuotes.id, quoteId));
      throw claimRefusal(existing, userId, now);
    }
    await postEntry(tx, swapEntry(claimed, inventoryShard(quoteId)));
    const record = toRecord(claimed);
    await this.writeSwapMessages(tx, [{ userId, swap: record }]);
    await settleAnswer?.(tx, record);
    return record;
  }

  /**
   * Execute a batch of swap requests in ONE transaction (group commit): claim every quote that is
   * the caller's, open and not expired with one `claimQuotes` call; post all their entries with
   * one `postEntries` call (inventory shard of the batch); put back (OPEN) the quotes whose entry
   * was refused; write the messages; store each executed request's answer (`settleAnswer`). Each
   * request gets its own answer, the same
   * as `execute` would give it alone. A batch that fails as a whole (a ledger key taken by a
   * concurrent twin, a deadlock) is retried one swap at a time.
   */
  private async executeBatch(requests: readonly SwapRequest[]): Promise<(SwapRecord | Error)[]> {
    try {
      return await this.db.transaction((tx) => this.executeInTransaction(tx, requests));
    } catch (error) {
      this.options.onBatchRetried?.(error, requests.length);
      return Promise.all(
        requests.map((request) =>
          this.db
            .transaction((tx) => this.execute(tx, request.userId, request.quoteId, request.settleAnswer))
            .catch((failure: unknown) => toError(failure)),
        ),
      );
    }
  }

  private async executeInTransaction(tx: Tx, requests: readonly SwapRequest[]): Promise<(SwapRecord | Error)[]> {
    const now = this.clock.now();
    // Sorted ids: concurrent batches claim quote rows in one order.
    const pairs = [
      ...new Map(requests.map((request) => [`${request.quoteId}\u0000${request.userId}`, request])).values(),
    ].sort((a, b) => (a.quoteId < b.quoteId ? -1 : a.quoteId > b.quoteId ? 1 : 0));
    const claimed = await claimQuotes(tx, pairs, now);
    const claimedById = new Map(claimed.map((row) => [row.id, row]));
    const unclaimedIds = [...new Set(requests.map((r) => r.quoteId).filter((id) => !claimedById.has(id)))];
    const existingById = new Map(
      unclaimedIds.length === 0
        ? []
        : (await tx.select().from(exchangeQuotes).where(inArray(exchangeQuotes.id, unclaimedIds))).map((row) => [
            row.id,
            row,
          ]),
    );

    const shard = this.nextShard;
    this.nextShard = (this.nextShard + 1) % EXCHANGE_INVENTORY_SHARDS;
    const results =
      claimed.length === 0
        ? []
        : await postEntries(
            tx,
            claimed.map((row) => swapEntry(row, shard)),
          );
    const outcomeById = new Map<string, SwapRecord | Error>();
    const refusedIds: string[] = [];
    const completed: CompletedSwap[] = [];
    for (const [index, row] of claimed.entries()) {
      const result = results[index]!;
      if (result instanceof Error) {
        refusedIds.push(row.id);
        outcomeById.set(row.id, result);
      } else {
        const swap = toRecord(row);
        completed.push({ userId: row.userId, swap });
        outcomeById.set(row.id, swap);
      }
    }
    // A refused entry moved nothing: its quote stays usable until it expires.
    if (refusedIds.length > 0)
      await tx
        .update(exchangeQuotes)
        .set({ status: 'OPEN', executedAt: null })
        .where(inArray(exchangeQuotes.id, refusedIds));
    if (completed.length > 0) {
      await this.writeSwapMessages(tx, completed);
    }

    // Each request's answer; a quote asked for twice in one batch is executed for the first only.
    const answered = new Set<string>();
    const answers = requests.map((request) => {
      const row = claimedById.get(request.quoteId);
      if (row && row.userId === request.userId && !answered.has(request.quoteId)) {
        answered.add(request.quoteId);
        return outcomeById.get(request.quoteId)!;
      }
      return claimRefusal(row ?? existingById.get(request.quoteId), request.userId, now);
    });
    for (const [index, answer] of answers.entries())
      if (!(answer instanceof Error)) await requests[index]!.settleAnswer?.(tx, answer);
    return answers;
  }

  /**
   * `POST exchange/swap`: execute the user's quote exactly once.
   * @throws DomainError QUOTE_EXPIRED (131), NOT_FOUND (another user's or no quote), CONFLICT (used),
   *   INSUFFICIENT_BALANCE (130), SERVICE_UNAVAILABLE (pair switched off), ACCOUNT_FROZEN (152,
   *   checked first) — nothing moves. `settleAnswer` stores the answer in the swap's transaction.
   */
  async swap(userId: string, quoteId: string, settleAnswer?: SettleAnswer): Promise<SwapRecord> {
    await this.accounts.assertNotFrozen(userId);
    return this.submitSwap({ userId, quoteId, ...(settleAnswer && { settleAnswer }) });
  }

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
    await this.accounts.assertNotFrozen(userId);
    const priced = await this.price(request);
    const floor = new PriceDecimal(request.expectedRate).times(new PriceDecimal(BPS - request.maxSlippageBps).div(BPS));
    if (priced.rate.lt(floor)) throw new DomainError('SLIPPAGE_EXCEEDED', {}, { rate: priced.rate.toFixed() });
    try {
      return await this.db.transaction(async (tx) => {
        await tx.insert(exchangeQuotes).values({
          ...this.quoteRow(userId, 'FLASH', priced, request.requestId),
          requestHash: REQUEST_HASH_IN_STORE,
        });
        return this.execute(tx, userId, request.requestId, settleAnswer);
      });
    } catch (error) {
      // The id is taken: another user's quote or flash with this requestId.
      if (isSqlState(error, SQLSTATE_UNIQUE_VIOLATION))
        throw new DomainError('CONFLICT', {}, { requestId: request.requestId });
      throw error;
    }
  }

  /**
   * Delete quotes that expired unused more than a day ago, at most `PRUNE_BATCH_ROWS` per call.
   * @returns the number deleted.
   */
  async pruneUnusedQuotes(tx: DbOrTx, now: Date): Promise<number> {
    const cutoff = new Date(now.getTime() - UNUSED_QUOTE_RETENTION_MS).toISOString();
    const result: unknown = await tx.execute(sql`
      DELETE FROM ${exchangeQuotes} WHERE id IN (
        SELECT id FROM ${exchangeQuotes} WHERE status = 'OPEN' AND expires_at < ${cutoff}::timestamptz LIMIT ${PRUNE_BATCH_ROWS}
      ) RETURNING 1`);
    const rows = (result as { rows?: unknown }).rows;
    return Array.isArray(rows) ? rows.length : 0;
  }

  /** The exchange's scheduler jobs: prune unused quotes hourly. */
  jobs(): JobDefinition[] {
    return [
      {
        name: 'exchange.prune-quotes',
        periodMs: 3_600_000,
        run: async ({ tx, now }) => void (await this.pruneUnusedQuotes(tx, now)),
      },
    ];
  }

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
    const [total] = await this.db.select({ n: count() }).from(exchangeQuotes).where(where);
    const rows = await this.db
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
  }

  // ---------------------------------------------------------------- back office

  /**
   * Swaps and flash exchanges executed in [`from`, `to`), per asset paid (`from` coin): count and
   * amount paid in minor units. For the back-office dashboard's day.
   */
  async swapTotalsBetween(from: Date, to: Date): Promise<{ asset: string; count: number; amountMinor: bigint }[]> {
    const rows = await this.db
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
  }
}
