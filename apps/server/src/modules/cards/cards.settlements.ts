import { type CardCurrency, type CardProcessorEvent, type CardWebhookAnswer } from '@meridian/contracts/cards';
import type { AssetCode } from '@meridian/contracts/money';
import { eq } from 'drizzle-orm';
import type { Tx } from '../../platform/db/client.ts';
import { accountBalance, postEntry } from '../ledger/ledger.service.ts';
import { platformAccount, type PostingInput, transfer } from '../ledger/ledger.types.ts';
import {
  availableAccount,
  type CardRow,
  type CardsDeps,
  type CardTransactionRow,
  convertMinor,
  heldAccount,
  readProcessorAmount,
  readSettings,
} from './cards.internal.ts';
import { cardSuspenseItems, cardTransactions } from './cards.tables.ts';
import { accepted, lockCardByToken, transactionByAuthId } from './cards.event-rows.ts';

/**
 * What the processor says moved after an authorisation: clearing (at the final amount), reversal
 * and refund, and money for an authorisation we cannot match (to suspense).
 */
export function createCardSettlements(deps: CardsDeps) {
  const { db } = deps;

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

  return { clear, reverse, refund };
}
