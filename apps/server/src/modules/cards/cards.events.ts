import assert from 'node:assert/strict';
import {
  CARD_CONFIRMATION_TTL_MS,
  CARD_PIN_BLOCK_HOURS,
  CARD_PIN_TRIES_MAX,
  CARD_WEBHOOK_TOLERANCE_MS,
  type CardConfirmation,
  type CardCurrency,
  type CardDeclineReason,
  type CardProcessorEvent,
  type CardTransaction,
  type CardWebhookAnswer,
  cardWebhookBodySchema,
} from '@meridian/contracts/cards';
import type { AssetCode } from '@meridian/contracts/money';
import { and, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../platform/db/client.ts';
import { queryRows } from '../../platform/db/rows.ts';
import { isSqlState } from '../../platform/db/sql-state.ts';
import { DomainError } from '../../platform/http/errors.ts';
import { accountBalance, postEntry, SQLSTATE_INSUFFICIENT_BALANCE } from '../ledger/ledger.service.ts';
import { type EntryInput, platformAccount, type PostingInput, transfer } from '../ledger/ledger.types.ts';
import {
  availableAccount,
  type CardRow,
  type CardsDeps,
  type CardTransactionRow,
  convertMinor,
  heldAccount,
  money,
  readProcessorAmount,
  readSettings,
  toTransaction,
} from './cards.internal.ts';
import { cardMessages, confirmationLink, confirmationResolution } from './cards.messages.ts';
import { isCardWebhookSignatureValid } from './cards.processor.ts';
import { cardSuspenseItems, cardTransactions, cards } from './cards.tables.ts';

type AuthorizationEvent = Extract<CardProcessorEvent, { type: 'authorization' }>;

/** Most cards whose currency the process keeps (about 100 bytes each); past it the cache starts again. */
const CARD_CURRENCIES_CACHED_MAX = 100_000;

/** The row `card_authorize` returns (sql/card_authorize.sql), as the driver gives it. */
interface AuthorizeRow {
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

/**
 * The ledger entry of an authorisation's hold: `amountMinor` from the card's available to its
 * held account, keyed by the processor's authorisation id (so one hold per authorisation).
 * `card_authorize` posts the same entry in SQL and writes this entry's `hashEntryRequest` out
 * itself (sql/card_authorize.sql step 7); cards.api.test.ts checks the two hashes agree.
 */
function holdEntry(card: Pick<CardRow, 'id' | 'currency'>, authId: string, amountMinor: bigint): EntryInput {
  return {
    kind: 'CARD_HOLD',
    reference: `card:${card.id}`,
    idempotencyKey: `card-hold:${authId}`,
    postings: transfer(availableAccount(card), heldAccount(card), amountMinor),
  };
}

const answerOf = (row: CardTransactionRow): CardWebhookAnswer => ({
  decision:
    row.status === 'DECLINED'
      ? 'DECLINED'
      : row.status === 'PENDING_CONFIRMATION'
        ? 'PENDING_CONFIRMATION'
        : 'APPROVED',
  declineReason: (row.declineReason as CardDeclineReason | null) ?? null,
  transactionId: row.id,
});

const accepted = (transactionId: number | null): CardWebhookAnswer => ({
  decision: 'ACCEPTED',
  declineReason: null,
  transactionId,
});

/**
 * The processor's side of cards: the signed webhook, the authorisation decision (the hot
 * path), 3-D Secure / "ask me above X" confirmations, clearing, reversal and refund. Every decision
 * runs in one transaction holding the card row's lock (`SELECT … FOR UPDATE`), so decisions on one
 * card are serial: concurrent authorisations never overspend, and the same authorisation delivered
 * twice finds its row (unique processor id) and answers the same decision with one hold.
 */
export function createCardEventsService(deps: CardsDeps) {
  const { db } = deps;
  /** The card's currency by processor token, from `card_authorize`'s answers (a card's currency never changes). */
  const cardCurrencies = new Map<string, CardCurrency>();

  /** Lock the card of `token`; null when the processor names no card of ours. */
  async function lockCardByToken(tx: Tx, token: string): Promise<CardRow | null> {
    const [row] = await tx.select().from(cards).where(eq(cards.processorToken, token)).for('update');
    return row ?? null;
  }

  async function transactionByAuthId(dbOrTx: DbOrTx, authId: string): Promise<CardTransactionRow | null> {
    const [row] = await dbOrTx.select().from(cardTransactions).where(eq(cardTransactions.processorAuthId, authId));
    return row ?? null;
  }

  /**
   * Why the locked `card` must decline a payment of `amountMinor` (its currency) now, or null:
   * the SQL function `card_refusal` (sql/card_refusal.sql — status, PIN block, lock or frozen
   * account, blocked category, per-transaction, daily and monthly limits, then the balance), the
   * same rules the authorisation decision runs. Read in `tx`, which holds the card row's lock.
   */
  async function refusalOf(tx: Tx, card: CardRow, amountMinor: bigint, mcc: string | null, now: Date) {
    const [row] = await queryRows<{ reason: string | null }>(
      tx,
      sql`SELECT card_refusal(c, ${amountMinor.toString()}::numeric, ${mcc}::text, ${now.toISOString()}::timestamptz, true) AS reason
          FROM cards c WHERE c.id = ${card.id}`,
    );
    return (row?.reason ?? null) as CardDeclineReason | null;
  }

  /** Hold `amountMinor` on the card (available → held), one entry keyed by the authorisation. */
  async function hold(tx: Tx, card: CardRow, authId: string, amountMinor: bigint): Promise<void> {
    await postEntry(tx, holdEntry(card, authId, amountMinor));
  }

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
   */
  async function authorize(event: AuthorizationEvent): Promise<CardWebhookAnswer> {
    const now = deps.now();
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
    const answerOfRow = (row: AuthorizeRow): CardWebhookAnswer => ({
      decision:
        row.o_transaction_status === 'DECLINED'
          ? 'DECLINED'
          : row.o_transaction_status === 'PENDING_CONFIRMATION'
            ? 'PENDING_CONFIRMATION'
            : 'APPROVED',
      declineReason: (row.o_decline_reason as CardDeclineReason | null) ?? null,
      transactionId: row.o_transaction_id === null ? null : Number(row.o_transaction_id),
    });
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
   * Rewrite the confirmation messages of lapsed payments as expired (docs/cards.md), through
   * `executor` (the transaction that declined them): one look-up of the cards' holders, then one
   * rewrite per holder.
   */
  async function resolveLapsed(executor: DbOrTx, lapsed: readonly { id: number; cardId: number }[]): Promise<void> {
    if (lapsed.length === 0) return;
    const holders = await executor
      .select({ id: cards.id, userId: cards.userId })
      .from(cards)
      .where(inArray(cards.id, [...new Set(lapsed.map((row) => row.cardId))]));
    const userOfCard = new Map(holders.map((holder) => [holder.id, holder.userId]));
    const linksByUser = new Map<string, string[]>();
    for (const row of lapsed) {
      const userId = userOfCard.get(row.cardId);
      if (userId) linksByUser.set(userId, [...(linksByUser.get(userId) ?? []), confirmationLink(row.id)]);
    }
    for (const [userId, links] of linksByUser)
      await deps.resolveMessages(userId, links, confirmationResolution('EXPIRED'), executor);
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

  /** Post the clearing of a held purchase at `finalMinor` (possibly different from the hold). */
  async function postClearing(tx: Tx, card: CardRow, row: CardTransactionRow, finalMinor: bigint): Promise<void> {
    const currency = card.currency as CardCurrency;
    const postings: PostingInput[] = [
      { account: heldAccount(card), amountMinor: -row.heldMinor },
      { account: platformAccount('PLATFORM_CARD_SETTLEMENT', currency), amountMinor: finalMinor },
    ];
    const diffMinor = finalMinor - row.heldMinor;
    if (diffMinor < 0n) postings.push({ account: availableAccount(card), amountMinor: -diffMinor });
    if (diffMinor > 0n) {
      // The network may clear more than was held (tips, fuel): take it from the card, and what the
      // card cannot pay from suspense, with an alert (the issuer owes the network regardless).
      const availableMinor = await accountBalance(tx, availableAccount(card));
      const fromCardMinor = availableMinor < diffMinor ? availableMinor : diffMinor;
      const shortMinor = diffMinor - fromCardMinor;
      if (fromCardMinor > 0n) postings.push({ account: availableAccount(card), amountMinor: -fromCardMinor });
      if (shortMinor > 0n) {
        postings.push({ account: platformAccount('SUSPENSE', currency), amountMinor: -shortMinor });
        deps.log.warn(
          { cardId: card.id, transactionId: row.id, shortMinor: shortMinor.toString() },
          'ALERT card clearing above the balance: the shortfall went to suspense',
        );
      }
    }
    await postEntry(tx, {
      kind: 'CARD_CLEARING',
      reference: `card:${card.id}`,
      idempotencyKey: `card-clear:${row.processorAuthId}`,
      postings: postings.filter((posting) => posting.amountMinor !== 0n),
    });
  }

  /** Money the processor says moved for an authorisation we cannot match: to suspense, with an alert. */
  async function toSuspense(
    tx: Tx,
    eventType: 'clearing' | 'refund',
    authId: string,
    token: string,
    amount: string,
    currency: string,
  ): Promise<void> {
    const minor = readProcessorAmount(amount, currency);
    let entryId: number | null = null;
    if (minor !== null && minor > 0n) {
      const asset = currency as AssetCode;
      const settlement = platformAccount('PLATFORM_CARD_SETTLEMENT', asset);
      const suspense = platformAccount('SUSPENSE', asset);
      const { entry } = await postEntry(tx, {
        kind: 'CARD_SUSPENSE',
        reference: `card-auth:${authId}`,
        idempotencyKey: `card-suspense:${eventType}:${authId}`,
        postings:
          eventType === 'clearing' ? transfer(suspense, settlement, minor) : transfer(settlement, suspense, minor),
      });
      entryId = entry.id;
    }
    await tx.insert(cardSuspenseItems).values({
      eventType,
      processorAuthId: authId,
      cardToken: token,
      amountMinor: minor ?? 0n,
      currency,
      entryId,
    });
    deps.log.warn(
      { eventType, authorizationId: authId, amount, currency },
      'ALERT card event for an unknown authorisation: booked to suspense',
    );
  }

  async function clear(event: Extract<CardProcessorEvent, { type: 'clearing' }>): Promise<CardWebhookAnswer> {
    const settings = await readSettings(db);
    const now = deps.now();
    return db.transaction(async (tx) => {
      const known = await transactionByAuthId(tx, event.authorizationId);
      const card = known ? await lockCardByToken(tx, event.cardToken) : null;
      const [row] = known
        ? await tx.select().from(cardTransactions).where(eq(cardTransactions.id, known.id)).for('update')
        : [];
      if (row?.status === 'CLEARED') return accepted(row.id);
      if (!card || !row || row.cardId !== card.id || row.status !== 'AUTHORIZED') {
        await toSuspense(tx, 'clearing', event.authorizationId, event.cardToken, event.amount, event.currency);
        return accepted(null);
      }
      const originalMinor = readProcessorAmount(event.amount, event.currency);
      const finalMinor =
        originalMinor === null
          ? null
          : convertMinor(originalMinor, event.currency, card.currency as CardCurrency, settings.fxRates, 'up');
      if (finalMinor === null) {
        await toSuspense(tx, 'clearing', event.authorizationId, event.cardToken, event.amount, event.currency);
        return accepted(null);
      }
      await postClearing(tx, card, row, finalMinor);
      await tx
        .update(cardTransactions)
        .set({
          status: 'CLEARED',
          amountMinor: finalMinor,
          heldMinor: 0n,
          originalAmount: event.amount,
          originalCurrency: event.currency,
          updatedAt: now,
        })
        .where(eq(cardTransactions.id, row.id));
      return accepted(row.id);
    });
  }

  async function reverse(event: Extract<CardProcessorEvent, { type: 'reversal' }>): Promise<CardWebhookAnswer> {
    const now = deps.now();
    return db.transaction(async (tx) => {
      const known = await transactionByAuthId(tx, event.authorizationId);
      if (!known) {
        deps.log.warn({ authorizationId: event.authorizationId }, 'card reversal for an unknown authorisation ignored');
        return accepted(null);
      }
      const card = await lockCardByToken(tx, event.cardToken);
      const [row] = await tx.select().from(cardTransactions).where(eq(cardTransactions.id, known.id)).for('update');
      if (!card || !row || row.cardId !== card.id) return accepted(null);
      if (row.status === 'AUTHORIZED') {
        await postEntry(tx, {
          kind: 'CARD_RELEASE',
          reference: `card:${card.id}`,
          idempotencyKey: `card-release:${event.authorizationId}`,
          postings: transfer(heldAccount(card), availableAccount(card), row.heldMinor),
        });
      }
      if (row.status === 'AUTHORIZED' || row.status === 'PENDING_CONFIRMATION')
        await tx
          .update(cardTransactions)
          .set({ status: 'REVERSED', heldMinor: 0n, updatedAt: now })
          .where(eq(cardTransactions.id, row.id));
      return accepted(row.id);
    });
  }

  async function refund(event: Extract<CardProcessorEvent, { type: 'refund' }>): Promise<CardWebhookAnswer> {
    const settings = await readSettings(db);
    const now = deps.now();
    return db.transaction(async (tx) => {
      const [twin] = await tx
        .select()
        .from(cardTransactions)
        .where(eq(cardTransactions.processorRefundId, event.refundId));
      if (twin) return accepted(twin.id);
      const card = await lockCardByToken(tx, event.cardToken);
      const originalMinor = readProcessorAmount(event.amount, event.currency);
      const creditMinor =
        card && originalMinor !== null
          ? convertMinor(originalMinor, event.currency, card.currency as CardCurrency, settings.fxRates, 'down')
          : null;
      if (!card || creditMinor === null || creditMinor <= 0n) {
        await toSuspense(tx, 'refund', event.refundId, event.cardToken, event.amount, event.currency);
        return accepted(null);
      }
      const currency = card.currency as CardCurrency;
      await postEntry(tx, {
        kind: 'CARD_REFUND',
        reference: `card:${card.id}`,
        idempotencyKey: `card-refund:${event.refundId}`,
        postings: transfer(platformAccount('PLATFORM_CARD_SETTLEMENT', currency), availableAccount(card), creditMinor),
      });
      const [row] = await tx
        .insert(cardTransactions)
        .values({
          cardId: card.id,
          kind: 'REFUND',
          status: 'COMPLETED',
          amountMinor: creditMinor,
          originalAmount: event.amount,
          originalCurrency: event.currency,
          merchantName: event.merchantName,
          processorRefundId: event.refundId,
          processorAuthId: null,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      return accepted(row!.id);
    });
  }

  /** Dispatch one parsed processor event. */
  async function handleEvent(event: CardProcessorEvent): Promise<CardWebhookAnswer> {
    switch (event.type) {
      case 'authorization':
        return authorize(event);
      case 'clearing':
        return clear(event);
      case 'reversal':
        return reverse(event);
      case 'refund':
        return refund(event);
    }
  }

  return {
    /**
     * A webhook as it arrived: the signature over the raw body is checked first (constant time),
     * then the body is read and `sentAt` must be within 5 minutes of the clock.
     * @throws DomainError WEBHOOK_SIGNATURE_INVALID (a bad or missing signature: nothing is read), BAD_REQUEST
     */
    async handleSignedWebhook(rawBody: string, signature: string | undefined): Promise<CardWebhookAnswer> {
      if (!isCardWebhookSignatureValid(deps.webhookSecret, rawBody, signature)) {
        deps.log.warn({ signature: signature?.slice(0, 16) ?? null }, 'card webhook refused: bad signature');
        throw new DomainError('WEBHOOK_SIGNATURE_INVALID');
      }
      let json: unknown;
      try {
        json = JSON.parse(rawBody);
      } catch {
        throw new DomainError('BAD_REQUEST');
      }
      const parsed = cardWebhookBodySchema.safeParse(json);
      if (!parsed.success) throw new DomainError('BAD_REQUEST');
      return this.handleWebhook(parsed.data);
    },

    /**
     * A webhook whose signature the route checked: `sentAt` within 5 minutes, then the event.
     * @throws DomainError BAD_REQUEST for a stale or future `sentAt`
     */
    async handleWebhook(body: { sentAt: string; event: CardProcessorEvent }): Promise<CardWebhookAnswer> {
      const skewMs = Math.abs(new Date(body.sentAt).getTime() - deps.now().getTime());
      if (!(skewMs <= CARD_WEBHOOK_TOLERANCE_MS)) throw new DomainError('BAD_REQUEST');
      return handleEvent(body.event);
    },

    /** `GET card/confirmations`: the caller's payments waiting for confirmation, not yet lapsed. */
    async listConfirmations(userId: string): Promise<CardConfirmation[]> {
      const now = deps.now();
      const rows = await db
        .select({ tx: cardTransactions, card: cards })
        .from(cardTransactions)
        .innerJoin(cards, eq(cards.id, cardTransactions.cardId))
        .where(
          and(
            eq(cards.userId, userId),
            eq(cardTransactions.status, 'PENDING_CONFIRMATION'),
            gte(cardTransactions.confirmBy, now),
          ),
        )
        .orderBy(cardTransactions.id);
      return rows.map(({ tx, card }) => ({
        id: tx.id,
        cardId: card.id,
        last4: card.last4,
        merchantName: tx.merchantName,
        amount: money(tx.amountMinor, card.currency as CardCurrency),
        currency: card.currency,
        reason: tx.confirmReason === 'ASK_ABOVE' ? 'ASK_ABOVE' : 'THREE_DS',
        expiresAt: tx.confirmBy!.toISOString(),
      }));
    },

    /**
     * `POST card/confirmation/:id`: the user approves or rejects a payment waiting for confirmation.
     * Approved within 5 minutes: the checks run again on the locked card and the amount is held
     * (or declined with the reason); rejected: declined THREE_DS_FAILED. The processor is told.
     * @throws DomainError NOT_FOUND, CARD_CONFIRMATION_EXPIRED (after 5 minutes: declined), CARD_CONFIRMATION_STATE_CHANGED
     */
    async confirm(userId: string, transactionId: number, isApproved: boolean): Promise<CardTransaction> {
      const now = deps.now();
      const outcome = await db.transaction(async (tx) => {
        const [found] = await tx
          .select({ cardId: cardTransactions.cardId })
          .from(cardTransactions)
          .innerJoin(cards, eq(cards.id, cardTransactions.cardId))
          .where(and(eq(cardTransactions.id, transactionId), eq(cards.userId, userId)));
        if (!found) throw new DomainError('NOT_FOUND');
        const [card] = await tx.select().from(cards).where(eq(cards.id, found.cardId)).for('update');
        const [row] = await tx
          .select()
          .from(cardTransactions)
          .where(eq(cardTransactions.id, transactionId))
          .for('update');
        if (!card || !row) throw new DomainError('NOT_FOUND');
        if (row.status !== 'PENDING_CONFIRMATION') throw new DomainError('CARD_CONFIRMATION_STATE_CHANGED');
        const isLate = row.confirmBy === null || row.confirmBy < now;
        let reason: CardDeclineReason | null = isLate || !isApproved ? 'THREE_DS_FAILED' : null;
        reason ??= await refusalOf(tx, card, row.amountMinor, row.mcc, now);
        if (reason === null) await hold(tx, card, row.processorAuthId!, row.amountMinor);
        const [updated] = await tx
          .update(cardTransactions)
          .set(
            reason === null
              ? { status: 'AUTHORIZED', heldMinor: row.amountMinor, updatedAt: now }
              : { status: 'DECLINED', declineReason: reason, updatedAt: now },
          )
          .where(eq(cardTransactions.id, row.id))
          .returning();
        // The confirmation message stops asking once the payment is decided (docs/cards.md).
        const decided = isLate ? 'EXPIRED' : reason === null ? 'APPROVED' : 'DECLINED';
        await deps.resolveMessages(userId, [confirmationLink(row.id)], confirmationResolution(decided), tx);
        return { row: updated!, currency: card.currency as CardCurrency, isLate };
      });
      await deps.processor.completeAuthorization(outcome.row.processorAuthId!, {
        decision: outcome.row.status === 'AUTHORIZED' ? 'APPROVED' : 'DECLINED',
        declineReason: outcome.row.declineReason as CardDeclineReason | null,
      });
      if (outcome.isLate) throw new DomainError('CARD_CONFIRMATION_EXPIRED');
      return toTransaction(outcome.row, outcome.currency);
    },

    /**
     * Decline the confirmations that lapsed before `now` (3DS failed: no answer in 5 minutes), up
     * to 500 a run, through `executor` (the job's transaction, or the database), and answer the
     * processor's pending authorisations as declined. With `isProcessorDeferred` (the job) the
     * processor is told without waiting: its writes must not queue behind the job's transaction,
     * which on the embedded database holds the only connection until the job returns. Run by the
     * job `cards.confirmations` and before the sandbox answers a poll.
     * @returns how many were declined.
     */
    async expireConfirmations(
      now: Date = deps.now(),
      options: { executor?: DbOrTx; isProcessorDeferred?: boolean } = {},
    ): Promise<number> {
      const executor = options.executor ?? db;
      const lapsed = await executor
        .update(cardTransactions)
        .set({ status: 'DECLINED', declineReason: 'THREE_DS_FAILED', updatedAt: now })
        .where(
          and(
            eq(cardTransactions.status, 'PENDING_CONFIRMATION'),
            lt(cardTransactions.confirmBy, now),
            inArray(
              cardTransactions.id,
              executor
                .select({ id: cardTransactions.id })
                .from(cardTransactions)
                .where(and(eq(cardTransactions.status, 'PENDING_CONFIRMATION'), lt(cardTransactions.confirmBy, now)))
                .limit(500),
            ),
          ),
        )
        .returning({
          id: cardTransactions.id,
          cardId: cardTransactions.cardId,
          authId: cardTransactions.processorAuthId,
        });
      await resolveLapsed(executor, lapsed);
      const tellProcessor = async () => {
        for (const { authId } of lapsed)
          if (authId)
            await deps.processor.completeAuthorization(authId, {
              decision: 'DECLINED',
              declineReason: 'THREE_DS_FAILED',
            });
      };
      if (options.isProcessorDeferred)
        void tellProcessor().catch((error: unknown) =>
          deps.log.warn({ err: error }, 'card processor not told of lapsed confirmations'),
        );
      else await tellProcessor();
      return lapsed.length;
    },

    /** Lift a PIN block (an operator). */
    async unblockPin(cardId: number): Promise<void> {
      await db
        .update(cards)
        .set({ pinBlockedUntil: null, pinWrongCount: 0, updatedAt: deps.now() })
        .where(eq(cards.id, cardId));
    },
  };
}

/** The processor-facing part of the cards service. */
export type CardEventsService = ReturnType<typeof createCardEventsService>;
