import assert from 'node:assert/strict';
import {
  CARD_CONFIRMATION_TTL_MS,
  CARD_PIN_BLOCK_HOURS,
  CARD_PIN_TRIES_MAX,
  type CardCurrency,
} from '@meridian/contracts/cards';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { nullableArrayLiteral, pgArrayLiteral } from '../../platform/db/pg-array.ts';
import { queryRows } from '../../platform/db/rows.ts';
import type { AuthorizationEvent } from './cards.event-rows.ts';

/**
 * Most authorisations of one card decided in one call of `card_authorize_batch`: the card row stays
 * locked for the whole call, so a bound keeps one call (and the wait of the card's next arrivals) short.
 */
export const CARD_AUTH_BATCH_MAX = 32;

/**
 * Calls of one card in flight from one process: 2, so the next one waits on the card row's lock
 * in the database while the current one runs (`createKeyedBatcher`).
 */
export const CARD_AUTH_CALLS_IN_FLIGHT_MAX = 2;

/** The row `card_authorize` returns (sql/card_authorize.sql), as the driver gives it. */
export interface AuthorizeRow {
  o_card_id: number | string | null;
  /** The card's owner, currency and last 4 digits: NULL only when no card has the token. */
  o_user_id: string | null;
  o_currency: string | null;
  o_last4: string | null;
  o_transaction_id: number | string | null;
  /** NULL when the amount was sent in another currency than the card's (nothing written). */
  o_transaction_status: string | null;
  o_decline_reason: string | null;
  o_is_replay: boolean;
}

/** A row of `card_authorize_batch` (sql/card_authorize_batch.sql): the item's index and its decision. */
interface BatchRow extends AuthorizeRow {
  o_index: number;
}

/** One authorisation waiting in its card's queue, its amount already in the card's currency. */
export interface QueuedAuthorisation {
  event: AuthorizationEvent;
  /** Minor units of `amountCurrency`, > 0. */
  amountMinor: bigint;
  amountCurrency: CardCurrency;
  /** The clock when the webhook arrived: the decision's time, as if decided alone. */
  now: Date;
}

/**
 * Decide `items` (2 to `CARD_AUTH_BATCH_MAX` authorisations of the card `cardToken`, in arrival
 * order) in one statement: `card_authorize_batch`, one lock of the card row and one commit. Each
 * item's answer is the row `card_authorize` would have given it alone at that point of the
 * sequence. Throws when any item raised (a hold the ledger refused, SQLSTATE ML001, or another
 * failure): then nothing of any item was written, and the caller decides them again one by one.
 */
export async function decideCardBatch(
  executor: DbOrTx,
  cardToken: string,
  items: readonly QueuedAuthorisation[],
): Promise<AuthorizeRow[]> {
  const column = (pick: (item: QueuedAuthorisation) => string | number | bigint) => pgArrayLiteral(items.map(pick));
  const rows = await queryRows<BatchRow>(
    executor,
    sql`SELECT * FROM card_authorize_batch(
      ${cardToken}, ${column((item) => item.event.authorizationId)}::text[],
      ${column((item) => item.amountMinor)}::numeric[], ${column((item) => item.amountCurrency)}::text[],
      ${column((item) => item.event.amount)}::text[], ${column((item) => item.event.currency)}::text[],
      ${column((item) => item.event.merchantName)}::text[],
      ${nullableArrayLiteral(items.map((item) => item.event.mcc ?? null))}::text[],
      ${column((item) => String(item.event.isOnline))}::boolean[],
      ${column((item) => String(item.event.isThreeDs))}::boolean[],
      ${column((item) => item.event.pinResult)}::text[],
      ${column((item) => String(item.event.isExpiryCorrect))}::boolean[],
      ${column((item) => item.now.toISOString())}::timestamptz[],
      ${CARD_PIN_TRIES_MAX}::integer, ${`${CARD_PIN_BLOCK_HOURS} hours`}::interval,
      ${`${CARD_CONFIRMATION_TTL_MS} milliseconds`}::interval)`,
  );
  const answers: AuthorizeRow[] = [];
  for (const row of rows) answers[Number(row.o_index) - 1] = row;
  assert.equal(answers.filter(Boolean).length, items.length, 'card_authorize_batch answers every item');
  return answers;
}

/**
 * A per-key queue that groups work (the server's per-card queue of authorisations): `submit(key,
 * item)` starts `runBatch(key, [item])` at once while fewer than `callsInFlightMax` calls of that
 * key are in flight in this process; otherwise the item waits, and when a call ends, everything
 * waiting for the key (at most `batchMax`, in arrival order) goes in one call. So a key holds at
 * most `callsInFlightMax` database connections here (waiting items hold none), a lone item waits
 * for nothing, and a busy key's items share calls. With 2 calls in flight the next call already
 * waits on the card row's lock in the database while the current one runs, so the card's chain of
 * decisions does not stop for this process's event loop between two calls; the database's lock,
 * not this queue, orders the calls (as it orders other processes' calls). `runBatch` answers one
 * result per item, in order: an `Error` in the array rejects that item only; a thrown error rejects
 * the whole batch.
 */
export function createKeyedBatcher<Item, Result>(
  runBatch: (key: string, items: Item[]) => Promise<(Result | Error)[]>,
  options: { batchMax: number; callsInFlightMax: number },
) {
  interface Waiting {
    item: Item;
    resolve: (result: Result) => void;
    reject: (error: unknown) => void;
  }
  interface KeyQueue {
    waiting: Waiting[];
    callsInFlight: number;
  }
  const queues = new Map<string, KeyQueue>();

  /** Send what waits for `key` while a call slot is free; forget the key once idle. */
  function pump(key: string, queue: KeyQueue): void {
    while (queue.waiting.length > 0 && queue.callsInFlight < options.callsInFlightMax) {
      queue.callsInFlight += 1;
      void call(key, queue, queue.waiting.splice(0, options.batchMax));
    }
    if (queue.callsInFlight === 0 && queue.waiting.length === 0) queues.delete(key);
  }

  async function call(key: string, queue: KeyQueue, batch: Waiting[]): Promise<void> {
    try {
      const results = await runBatch(
        key,
        batch.map((entry) => entry.item),
      );
      batch.forEach((entry, index) => {
        const result = results[index];
        if (result instanceof Error) entry.reject(result);
        else if (result === undefined) entry.reject(new Error('keyed batch: no result for the item'));
        else entry.resolve(result);
      });
    } catch (error) {
      for (const entry of batch) entry.reject(error);
    } finally {
      queue.callsInFlight -= 1;
      pump(key, queue);
    }
  }

  return {
    /** Queue `item` under `key`; resolves with its result (see the function's comment). */
    submit(key: string, item: Item): Promise<Result> {
      return new Promise<Result>((resolve, reject) => {
        let queue = queues.get(key);
        if (!queue) {
          queue = { waiting: [], callsInFlight: 0 };
          queues.set(key, queue);
        }
        queue.waiting.push({ item, resolve, reject });
        pump(key, queue);
      });
    },
    /** Keys with a call in flight (for tests and metrics). */
    busyKeys: (): number => queues.size,
  };
}
