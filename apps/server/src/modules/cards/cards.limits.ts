import { type CardCurrency, type CardLimitRequest } from '@meridian/contracts/cards';
import { readAmountMinor } from '@meridian/contracts/money';
import { and, eq } from 'drizzle-orm';
import { isSqlState, SQLSTATE_UNIQUE_VIOLATION } from '../../platform/db/sql-state.ts';
import { DomainError, FieldError } from '../../platform/http/errors.ts';
import { type CardsDeps, money, ownCard } from './cards.internal.ts';
import { cardLimitRequests, cards } from './cards.tables.ts';

/** Amount in the card's currency from a wire decimal, refused on `field`. */
function readCardAmount(text: string | null, currency: CardCurrency, field: string): bigint | null {
  if (text === null) return null;
  const read = readAmountMinor(text, currency);
  if ('refusal' in read) throw new FieldError(field, read.refusal.messageKey, read.refusal.params);
  return read.amountMinor;
}

/** Limit-change requests: the user's request and the back office's list and decision. */
export function createCardLimits(deps: CardsDeps) {
  const { db } = deps;

  return {
    /**
     * `POST card/:id/limit-request`: stored for customer service (one pending per card).
     * @throws DomainError NOT_FOUND, CARD_CURRENCY_MISMATCH, CARD_LIMIT_REQUEST_PENDING (216)
     */
    async requestLimitChange(
      userId: string,
      cardId: number,
      body: {
        currency: CardCurrency;
        perTransaction: string | null;
        daily: string | null;
        monthly: string | null;
        reason: string;
      },
    ): Promise<CardLimitRequest> {
      const card = await ownCard(db, userId, cardId);
      const currency = card.currency as CardCurrency;
      if (currency !== body.currency) throw new DomainError('CARD_CURRENCY_MISMATCH', { currency });
      const values = {
        cardId,
        perTransactionMinor: readCardAmount(body.perTransaction, currency, 'perTransaction'),
        dailyMinor: readCardAmount(body.daily, currency, 'daily'),
        monthlyMinor: readCardAmount(body.monthly, currency, 'monthly'),
        reason: body.reason,
        createdAt: deps.now(),
      };
      try {
        const [row] = await db.insert(cardLimitRequests).values(values).returning();
        return toLimitRequest(row!, currency);
      } catch (error) {
        if (isSqlState(error, SQLSTATE_UNIQUE_VIOLATION)) throw new DomainError('CARD_LIMIT_REQUEST_PENDING');
        throw error;
      }
    },

    /** Pending limit-change requests, oldest first (the back office). */
    async pendingLimitRequests(): Promise<(CardLimitRequest & { userId: string })[]> {
      const rows = await db
        .select({ request: cardLimitRequests, card: cards })
        .from(cardLimitRequests)
        .innerJoin(cards, eq(cards.id, cardLimitRequests.cardId))
        .where(eq(cardLimitRequests.state, 'PENDING'))
        .orderBy(cardLimitRequests.id)
        .limit(500);
      return rows.map(({ request, card }) => ({
        ...toLimitRequest(request, card.currency as CardCurrency),
        userId: card.userId,
      }));
    },

    /**
     * Customer service decides a pending limit-change request: approved, the requested limits (those
     * not null) become the card's; rejected, nothing changes. Both in one transaction.
     * @throws DomainError NOT_FOUND (no such request, or already decided)
     */
    async decideLimitRequest(requestId: number, isApproved: boolean, decidedBy: string): Promise<CardLimitRequest> {
      const now = deps.now();
      return db.transaction(async (tx) => {
        const [request] = await tx
          .update(cardLimitRequests)
          .set({ state: isApproved ? 'APPROVED' : 'REJECTED', decidedAt: now, decidedBy })
          .where(and(eq(cardLimitRequests.id, requestId), eq(cardLimitRequests.state, 'PENDING')))
          .returning();
        if (!request) throw new DomainError('NOT_FOUND');
        const [card] = await tx.select().from(cards).where(eq(cards.id, request.cardId)).for('update');
        if (isApproved)
          await tx
            .update(cards)
            .set({
              limitPerTransactionMinor: request.perTransactionMinor ?? card!.limitPerTransactionMinor,
              limitDailyMinor: request.dailyMinor ?? card!.limitDailyMinor,
              limitMonthlyMinor: request.monthlyMinor ?? card!.limitMonthlyMinor,
              updatedAt: now,
            })
            .where(eq(cards.id, request.cardId));
        return toLimitRequest(request, card!.currency as CardCurrency);
      });
    },
  };
}

/** A limit-change request as the API answers it (amounts in `currency`). */
export function toLimitRequest(row: typeof cardLimitRequests.$inferSelect, currency: CardCurrency): CardLimitRequest {
  const amount = (minor: bigint | null) => (minor === null ? null : money(minor, currency));
  return {
    id: row.id,
    cardId: row.cardId,
    state: row.state as CardLimitRequest['state'],
    requested: {
      perTransaction: amount(row.perTransactionMinor),
      daily: amount(row.dailyMinor),
      monthly: amount(row.monthlyMinor),
    },
    reason: row.reason,
    createdAt: row.createdAt.toISOString(),
    decidedAt: row.decidedAt?.toISOString() ?? null,
  };
}
