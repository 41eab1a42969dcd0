/**
 * The exchange's swaps: claiming quotes, the swap's ledger entry against a shard of the exchange
 * inventory, and the execution of one swap or of a batch of concurrent swaps in one transaction
 * (group commit; docs/exchange.md).
 */
import type { SwapRecord } from '@meridian/contracts/exchange';
import type { MarketCoinCode } from '@meridian/contracts/market';
import { toDecimalString } from '@meridian/contracts/money';
import { eq, inArray, sql } from 'drizzle-orm';
import type { SettleAnswer } from '../../platform/db/idempotency.ts';
import type { Db, DbOrTx, Tx } from '../../platform/db/client.ts';
import { pgArrayLiteral } from '../../platform/db/pg-array.ts';
import { queryRows, rowOfTable } from '../../platform/db/rows.ts';
import { DomainError } from '../../platform/http/errors.ts';
import type { Clock } from '../../platform/clock/clock.ts';
import { PriceDecimal } from '../../platform/prices/types.ts';
import { postEntries, postEntry } from '../ledger/ledger.service.ts';
import { type EntryInput, platformAccount, userAccount } from '../ledger/ledger.types.ts';
import type { QuoteRow } from './exchange.pricing.ts';
import { exchangeQuotes } from './exchange.tables.ts';

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

/** A swap request waiting for its batch. */
export interface SwapRequest {
  userId: string;
  quoteId: string;
  /** Stores the request's answer in the transaction that executes it (docs/api.md "Idempotency"). */
  settleAnswer?: SettleAnswer;
}

/** A stored quote as a swap record (executed ones: their execution time). */
export function toRecord(row: QuoteRow): SwapRecord {
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
 * Why a quote could not be claimed for `userId` at `now` (the claiming UPDATE matched nothing),
 * once the account is known not to be frozen. Another user's quote answers like a missing one, so
 * quote ids reveal nothing.
 */
function claimRefusal(existing: QuoteRow | undefined, userId: string, now: Date): DomainError {
  if (!existing || existing.userId !== userId) return new DomainError('NOT_FOUND');
  if (existing.status === 'EXECUTED') return new DomainError('CONFLICT', {}, { quoteId: existing.id });
  if (existing.expiresAt.getTime() <= now.getTime()) return new DomainError('QUOTE_EXPIRED');
  return new DomainError('SERVICE_UNAVAILABLE');
}

/**
 * Claim quotes (`exchange_claim_quotes`, migrations 0013, 0067, 0070 and 0072): each requested
 * quote that is the caller's, OPEN, not expired at `now`, of a pair not switched off and of an
 * account not frozen becomes EXECUTED at `now`, in one statement that finds each quote by primary
 * key, so concurrent claims of one quote execute it once. Pass `requests` sorted by quote id
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

/** What the exchange needs of the identity module (its service satisfies this). */
export interface ExchangeAccounts {
  /**
   * Refuse money movement of a frozen account, read on `db` (the caller's transaction
   * when given). @throws DomainError ACCOUNT_FROZEN (152).
   */
  assertNotFrozen(userId: string, db?: DbOrTx): Promise<void>;
}

/**
 * What a swap executor needs: the database, the clock, the accounts (why a frozen account's
 * request was not claimed) and the writer of "swap done" messages.
 */
export interface SwapExecutorDeps {
  db: Db;
  clock: Clock;
  accounts: ExchangeAccounts;
  writeSwapMessages: SwapMessageWriter;
  /** Told when a batch failed as a whole and its swaps were retried one by one. */
  onBatchRetried?: ((error: unknown, size: number) => void) | undefined;
}

/**
 * Executes swaps: `execute` one quote in the caller's transaction, `executeBatch` the concurrent
 * requests of a write batch in one transaction. Holds the rotating inventory shard of the batches.
 */
export function createSwapExecutor(deps: SwapExecutorDeps) {
  const { db, clock, accounts, writeSwapMessages } = deps;

  /**
   * The refusal of a request the claim left out: ACCOUNT_FROZEN first (the claim skips a frozen
   * account's quotes; read again here on `tx`), then `claimRefusal`.
   */
  async function refusalOf(tx: Tx, existing: QuoteRow | undefined, userId: string, now: Date): Promise<DomainError> {
    try {
      await accounts.assertNotFrozen(userId, tx);
    } catch (error) {
      if (error instanceof DomainError) return error;
      throw error;
    }
    return claimRefusal(existing, userId, now);
  }
  /** The inventory shard of the next swap batch: rotating, so concurrent batches lock different rows. */
  let nextShard = Math.floor(Math.random() * EXCHANGE_INVENTORY_SHARDS);

  /**
   * Claim the quote (`claimQuotes`: OPEN → EXECUTED in one conditional UPDATE, so 20 concurrent
   * calls execute it once; a frozen account's quote is not claimed) and post the swap entry in the
   * same transaction: user `from` → inventory, inventory `to` → user. A refusal (ACCOUNT_FROZEN
   * first) rolls the claim back, so nothing moves and the quote stays usable until it expires.
   * The answer is stored by `settleAnswer` in the same transaction.
   */
  async function execute(tx: Tx, userId: string, quoteId: string, settleAnswer?: SettleAnswer): Promise<SwapRecord> {
    const now = clock.now();
    const [claimed] = await claimQuotes(tx, [{ quoteId, userId }], now);
    if (!claimed) {
      const [existing] = await tx.select().from(exchangeQuotes).where(eq(exchangeQuotes.id, quoteId));
      throw await refusalOf(tx, existing, userId, now);
    }
    await postEntry(tx, swapEntry(claimed, inventoryShard(quoteId)));
    const record = toRecord(claimed);
    await writeSwapMessages(tx, [{ userId, swap: record }]);
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
  async function executeBatch(requests: readonly SwapRequest[]): Promise<(SwapRecord | Error)[]> {
    try {
      return await db.transaction((tx) => executeInTransaction(tx, requests));
    } catch (error) {
      deps.onBatchRetried?.(error, requests.length);
      return Promise.all(
        requests.map((request) =>
          db
            .transaction((tx) => execute(tx, request.userId, request.quoteId, request.settleAnswer))
            .catch((failure: unknown) => toError(failure)),
        ),
      );
    }
  }

  /** The body of `executeBatch`, in its transaction. */
  async function executeInTransaction(tx: Tx, requests: readonly SwapRequest[]): Promise<(SwapRecord | Error)[]> {
    const now = clock.now();
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

    const shard = nextShard;
    nextShard = (nextShard + 1) % EXCHANGE_INVENTORY_SHARDS;
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
      await writeSwapMessages(tx, completed);
    }

    // Each request's answer; a quote asked for twice in one batch is executed for the first only.
    const answered = new Set<string>();
    const answers: (SwapRecord | Error)[] = [];
    for (const request of requests) {
      const row = claimedById.get(request.quoteId);
      if (row && row.userId === request.userId && !answered.has(request.quoteId)) {
        answered.add(request.quoteId);
        answers.push(outcomeById.get(request.quoteId)!);
      } else {
        answers.push(await refusalOf(tx, row ?? existingById.get(request.quoteId), request.userId, now));
      }
    }
    for (const [index, answer] of answers.entries())
      if (!(answer instanceof Error)) await requests[index]!.settleAnswer?.(tx, answer);
    return answers;
  }

  return { execute, executeBatch };
}
