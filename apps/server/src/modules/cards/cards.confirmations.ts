import {
  type CardConfirmation,
  type CardCurrency,
  type CardDeclineReason,
  type CardTransaction,
} from '@meridian/contracts/cards';
import { and, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../platform/db/client.ts';
import { queryRows } from '../../platform/db/rows.ts';
import { DomainError } from '../../platform/http/errors.ts';
import { postEntry } from '../ledger/ledger.service.ts';
import { type CardRow, type CardsDeps, money, toTransaction } from './cards.internal.ts';
import { confirmationLink, confirmationResolution } from './cards.messages.ts';
import { cardTransactions, cards } from './cards.tables.ts';
import { holdEntry } from './cards.event-rows.ts';

/**
 * Payments waiting for the user's confirmation (3-D Secure, "ask me above X"): the list, the
 * user's answer, and the lapse of those not answered in time.
 */
export function createCardConfirmations(deps: CardsDeps) {
  const { db } = deps;

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

  return {
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
  };
}
