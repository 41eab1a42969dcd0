import assert from 'node:assert/strict';
import {
  CARD_CONFIRMATION_TTL_MS,
  CARD_PIN_BLOCK_HOURS,
  CARD_PIN_TRIES_MAX,
  type CardCurrency,
  type CardDeclineReason,
  type CardWebhookAnswer,
} from '@meridian/contracts/cards';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { queryRows } from '../../platform/db/rows.ts';
import { isSqlState } from '../../platform/db/sql-state.ts';
import { SQLSTATE_INSUFFICIENT_BALANCE } from '../ledger/ledger.service.ts';
import { type CardsDeps, convertMinor, money, readProcessorAmount, readSettings } from './cards.internal.ts';
import { cardMessages, confirmationLink } from './cards.messages.ts';
import { cardTransactions } from './cards.tables.ts';
import { answerOf, type AuthorizationEvent, lockCardByToken, transactionByAuthId } from './cards.event-rows.ts';
import {
  type AuthorizeRow,
  CARD_AUTH_BATCH_MAX,
  CARD_AUTH_CALLS_IN_FLIGHT_MAX,
  createKeyedBatcher,
  decideCardBatch,
  type QueuedAuthorisation,
} from './cards.auth-queue.ts';

/** Most cards whose currency the process keeps (about 100 bytes each); past it the cache starts again. */
const CARD_CURRENCIES_CACHED_MAX = 100_000;

/**
 * The authorisation decision (the hot path), kept as one unit: `authorize` and the decline it
 * falls back to when the ledger refuses the hold (`declineInsufficient`).
 */
export function createCardAuthorisations(deps: CardsDeps) {
  const { db } = deps;
  /** The card's currency by processor token, from `card_authorize`'s answers (a card's currency never changes). */
  const cardCurrencies = new Map<string, CardCurrency>();

  /**
   * The authorisation decision (just-in-time funding): one call of the SQL function
   * `card_authorize` (sql/card_authorize.sql: the card's lock, the duplicate check, the PIN count,
   * `card_refusal`, the expiry, the balance, then the hold or the confirmation row). Declines write
   * a DECLINED row and move nothing; a wrong PIN counts toward the block (the fifth blocks for
   * 24 h); an online payment with 3-D Secure, or an in-person one above the user's "ask me above
   * X", waits for the user's confirmation (PENDING_CONFIRMATION, 5 minutes, a push and a message,
   * written in the decision's transaction); otherwise the amount is held and the answer is
   * APPROVED. An online payment without 3-D Secure cannot wait for a confirmation, so it runs as
   * the one statement alone (one round trip); the others run in a transaction with the message.
   *
   * The amount is sent in the card's currency when the process knows it (`cardCurrencies`, filled
   * from the function's answers), else in the merchant's: when that is not the card's, the function
   * answers the card's currency and writes nothing, and the amount is converted at the rate table
   * (rounded up, against the user) and sent again — the only case of two round trips.
   *
   * An online payment without 3-D Secure on a card whose currency the process knows goes through
   * the card's queue (`cardQueue`): at once while fewer than 2 calls of the card are in flight,
   * else together with the card's other waiting ones in one `card_authorize_batch` — the same
   * decisions as one after another (docs/cards.md "Hot cards: one commit for a card's queue").
   */
  async function authorize(event: AuthorizationEvent): Promise<CardWebhookAnswer> {
    const now = deps.now();
    const cardCurrency = cardCurrencies.get(event.cardToken);
    const originalMinor = readProcessorAmount(event.amount, event.currency);
    if (event.isOnline && !event.isThreeDs && cardCurrency !== undefined && originalMinor !== null) {
      const amountMinor =
        event.currency === cardCurrency
          ? originalMinor
          : convertMinor(originalMinor, event.currency, cardCurrency, (await readSettings(db)).fxRates, 'up');
      if (amountMinor !== null && amountMinor > 0n) {
        return cardQueue.submit(event.cardToken, { event, amountMinor, amountCurrency: cardCurrency, now });
      }
    }
    return authorizeAlone(event, now);
  }

  /**
   * The decision of one authorisation on its own (`authorize`'s comment): one call of
   * `card_authorize`, two when the card's currency was not known; in a transaction with the
   * user's message when it may wait for a confirmation.
   */
  async function authorizeAlone(event: AuthorizationEvent, now: Date): Promise<CardWebhookAnswer> {
    const originalMinor = readProcessorAmount(event.amount, event.currency);
    /** The amount to decide in `currency` (the card's, or the merchant's while the card's is unknown). */
    const amountIn = async (currency: CardCurrency): Promise<bigint | null> =>
      originalMinor === null
        ? null
        : event.currency === currency
          ? originalMinor
          : convertMinor(originalMinor, event.currency, currency, (await readSettings(db)).fxRates, 'up');
    let amountCurrency = cardCurrencies.get(event.cardToken) ?? (event.currency as CardCurrency);
    let amountMinor = await amountIn(amountCurrency);
    const decideOnce = async (executor: DbOrTx) => {
      const isPayable = amountMinor !== null && amountMinor > 0n;
      const [row] = await queryRows<AuthorizeRow>(
        executor,
        sql`SELECT * FROM card_authorize(
          ${event.cardToken}, ${event.authorizationId}, ${isPayable ? amountMinor!.toString() : null}::numeric,
          ${amountCurrency}, ${event.amount}, ${event.currency}, ${event.merchantName}, ${event.mcc}::text,
          ${event.isOnline}, ${event.isThreeDs}, ${event.pinResult}, ${event.isExpiryCorrect},
          ${now.toISOString()}::timestamptz, ${CARD_PIN_TRIES_MAX}::integer, ${`${CARD_PIN_BLOCK_HOURS} hours`}::interval,
          ${`${CARD_CONFIRMATION_TTL_MS} milliseconds`}::interval)`,
      );
      assert.ok(row, 'card_authorize returns one row');
      if (row.o_currency !== null) {
        if (cardCurrencies.size >= CARD_CURRENCIES_CACHED_MAX) cardCurrencies.clear();
        cardCurrencies.set(event.cardToken, row.o_currency as CardCurrency);
      }
      return row;
    };
    /** The decision, with the second call when the card's currency was not the one sent. */
    const decide = async (executor: DbOrTx) => {
      const row = await decideOnce(executor);
      if (row.o_transaction_status !== null) return row;
      amountCurrency = row.o_currency as CardCurrency;
      amountMinor = await amountIn(amountCurrency);
      const again = await decideOnce(executor);
      assert.ok(again.o_transaction_status !== null, 'card_authorize decides in the card currency');
      return again;
    };
    try {
      if (event.isOnline && !event.isThreeDs) return answerOfRow(await decide(db));
      return await db.transaction(async (tx) => {
        const row = await decide(tx);
        if (row.o_transaction_status === 'PENDING_CONFIRMATION' && !row.o_is_replay && amountMinor !== null) {
          const currency = row.o_currency as CardCurrency;
          await deps.notify(
            {
              userId: row.o_user_id!,
              category: 'CARD',
              ...cardMessages.confirm,
              params: {
                amount: money(amountMinor, currency),
                currency,
                merchant: event.merchantName,
                last4: row.o_last4!,
              },
              // The card page highlights this payment in its confirmation banner.
              link: confirmationLink(row.o_transaction_id!),
            },
            tx,
          );
          deps.log.info({ authorizationId: event.authorizationId }, 'card payment waits for confirmation');
        }
        return answerOfRow(row);
      });
    } catch (error) {
      // The hold's ledger update refused (money left the card without its lock since the balance
      // was read): everything was rolled back; decline in a new transaction.
      if (amountMinor !== null && amountMinor > 0n && isSqlState(error, SQLSTATE_INSUFFICIENT_BALANCE))
        return declineInsufficient(event, amountMinor, now);
      throw error;
    }
  }

  /**
   * The decline of an authorisation whose hold the ledger refused (not enough balance): a new
   * transaction on the locked card (the first one was aborted), once per authorisation.
   */
  async function declineInsufficient(
    event: AuthorizationEvent,
    amountMinor: bigint,
    now: Date,
  ): Promise<CardWebhookAnswer> {
    return db.transaction(async (tx) => {
      const card = await lockCardByToken(tx, event.cardToken);
      assert.ok(card, 'the card whose hold was refused exists');
      const cardId = card.id;
      const twin = await transactionByAuthId(tx, event.authorizationId);
      if (twin) return answerOf(twin);
      const [row] = await tx
        .insert(cardTransactions)
        .values({
          cardId,
          kind: 'PURCHASE',
          status: 'DECLINED',
          amountMinor,
          declineReason: 'INSUFFICIENT_FUNDS',
          originalAmount: event.amount,
          originalCurrency: event.currency,
          merchantName: event.merchantName,
          mcc: event.mcc,
          processorAuthId: event.authorizationId,
          isOnline: event.isOnline,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      return answerOf(row!);
    });
  }

  /**
   * A card's queued online authorisations (`cardQueue`), in arrival order: one alone as
   * `authorizeAlone`; several in one call of `card_authorize_batch` (one lock, one commit), each
   * answered as if alone in that order. When that call fails (an item raised: nothing was
   * written), each item is decided again alone, in order, so a failure reaches only its own
   * authorisation (an `Error` in its place).
   */
  async function decideQueued(cardToken: string, items: QueuedAuthorisation[]): Promise<(CardWebhookAnswer | Error)[]> {
    if (items.length === 1) return [await authorizeAlone(items[0]!.event, items[0]!.now)];
    let rows: AuthorizeRow[];
    try {
      rows = await decideCardBatch(db, cardToken, items);
    } catch (error) {
      deps.log.warn({ cardToken, items: items.length, err: error }, 'card batch failed: deciding its items one by one');
      const answers: (CardWebhookAnswer | Error)[] = [];
      for (const item of items) {
        answers.push(await authorizeAlone(item.event, item.now).catch((itemError: unknown) => asError(itemError)));
      }
      return answers;
    }
    const answers: (CardWebhookAnswer | Error)[] = [];
    for (const [index, row] of rows.entries()) {
      // The card's currency never changes, so a queued amount is in it; were it not, decide alone.
      answers.push(
        row.o_transaction_status === null
          ? await authorizeAlone(items[index]!.event, items[index]!.now).catch((error: unknown) => asError(error))
          : answerOfRow(row),
      );
    }
    return answers;
  }
  /**
   * Online authorisations of a card whose currency is known wait here while 2 calls of the card are
   * in flight, and go together (docs/cards.md "Hot cards: one commit for a card's queue").
   */
  const cardQueue = createKeyedBatcher(decideQueued, {
    batchMax: CARD_AUTH_BATCH_MAX,
    callsInFlightMax: CARD_AUTH_CALLS_IN_FLIGHT_MAX,
  });

  return { authorize };
}

/** `error` as an Error (what a rejected promise carried). */
function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/** The webhook's answer for a decision row of `card_authorize`. */
function answerOfRow(row: AuthorizeRow): CardWebhookAnswer {
  return {
    decision:
      row.o_transaction_status === 'DECLINED'
        ? 'DECLINED'
        : row.o_transaction_status === 'PENDING_CONFIRMATION'
          ? 'PENDING_CONFIRMATION'
          : 'APPROVED',
    declineReason: (row.o_decline_reason as CardDeclineReason | null) ?? null,
    transactionId: row.o_transaction_id === null ? null : Number(row.o_transaction_id),
  };
}
