import { type CardDeclineReason, type CardProcessorEvent, type CardWebhookAnswer } from '@meridian/contracts/cards';
import { eq } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../platform/db/client.ts';
import { type EntryInput, transfer } from '../ledger/ledger.types.ts';
import { availableAccount, type CardRow, type CardTransactionRow, heldAccount } from './cards.internal.ts';
import { cardTransactions, cards } from './cards.tables.ts';

// What the processor's events share: the hold's entry, the webhook answers, the card and payment rows by processor id.

/** The processor's authorisation event. */
export type AuthorizationEvent = Extract<CardProcessorEvent, { type: 'authorization' }>;

/**
 * The ledger entry of an authorisation's hold: `amountMinor` from the card's available to its
 * held account, keyed by the processor's authorisation id (so one hold per authorisation).
 * `card_authorize` posts the same entry in SQL and writes this entry's `hashEntryRequest` out
 * itself (sql/card_authorize.sql step 7); cards.api.test.ts checks the two hashes agree.
 */
export function holdEntry(card: Pick<CardRow, 'id' | 'currency'>, authId: string, amountMinor: bigint): EntryInput {
  return {
    kind: 'CARD_HOLD',
    reference: `card:${card.id}`,
    idempotencyKey: `card-hold:${authId}`,
    postings: transfer(availableAccount(card), heldAccount(card), amountMinor),
  };
}

/** The webhook answer of a payment row already decided. */
export const answerOf = (row: CardTransactionRow): CardWebhookAnswer => ({
  decision:
    row.status === 'DECLINED'
      ? 'DECLINED'
      : row.status === 'PENDING_CONFIRMATION'
        ? 'PENDING_CONFIRMATION'
        : 'APPROVED',
  declineReason: (row.declineReason as CardDeclineReason | null) ?? null,
  transactionId: row.id,
});

/** The webhook answer of an event taken in (clearing, reversal, refund). */
export const accepted = (transactionId: number | null): CardWebhookAnswer => ({
  decision: 'ACCEPTED',
  declineReason: null,
  transactionId,
});

/** Lock the card of `token`; null when the processor names no card of ours. */
export async function lockCardByToken(tx: Tx, token: string): Promise<CardRow | null> {
  const [row] = await tx.select().from(cards).where(eq(cards.processorToken, token)).for('update');
  return row ?? null;
}

/** The payment row of the processor's authorisation `authId`, or null. */
export async function transactionByAuthId(dbOrTx: DbOrTx, authId: string): Promise<CardTransactionRow | null> {
  const [row] = await dbOrTx.select().from(cardTransactions).where(eq(cardTransactions.processorAuthId, authId));
  return row ?? null;
}
