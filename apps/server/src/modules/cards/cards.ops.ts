import {
  CARD_STATUS_STEPS,
  type CardStepTarget,
  type CardSuspenseResolution,
  type DecideLimitRequestBody,
  type OpsCard,
  type OpsLimitRequest,
  type OpsSuspenseItem,
} from '@meridian/contracts/card-ops';
import type { CardCurrency, CardKind, CardNetwork, CardStatus } from '@meridian/contracts/cards';
import { type AssetCode, readAmountMinor, toDecimalString } from '@meridian/contracts/money';
import { type Page, type PageQuery, totalPages } from '@meridian/contracts/pagination';
import { and, asc, count, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { DomainError, FieldError } from '../../platform/http/errors.ts';
import { accountBalance, postEntry } from '../ledger/ledger.service.ts';
import { platformAccount, transfer } from '../ledger/ledger.types.ts';
import { availableAccount, type CardRow, type CardsDeps, maskNumber, money } from './cards.internal.ts';
import { cardMessages } from './cards.messages.ts';
import { cardLimitRequests, cardSuspenseItems, cardTransactions, cards } from './cards.tables.ts';

type LimitRequestRow = typeof cardLimitRequests.$inferSelect;
type SuspenseRow = typeof cardSuspenseItems.$inferSelect;

function toOpsSuspense(item: SuspenseRow, cardId: number | null): OpsSuspenseItem {
  return {
    id: item.id,
    eventType: item.eventType,
    processorAuthId: item.processorAuthId,
    cardId,
    amount: money(item.amountMinor, item.currency as CardCurrency),
    currency: item.currency,
    state: item.state as OpsSuspenseItem['state'],
    note: item.note,
    resolution: item.resolution as OpsSuspenseItem['resolution'],
    resolvedAt: item.resolvedAt?.toISOString() ?? null,
    createdAt: item.createdAt.toISOString(),
  };
}

const amountOf = (minor: bigint | null, currency: CardCurrency) => (minor === null ? null : money(minor, currency));

/** A limit in the card's currency from a wire decimal; refused naming `limits.<field>`. */
function readLimit(text: string | null, currency: CardCurrency, field: string): bigint | null {
  if (text === null) return null;
  const read = readAmountMinor(text, currency);
  if ('refusal' in read) throw new FieldError(`limits.${field}`, read.refusal.messageKey, read.refusal.params);
  return read.amountMinor;
}

function toOpsCard(row: CardRow, now: Date): OpsCard {
  const currency = row.currency as CardCurrency;
  return {
    id: row.id,
    userId: row.userId,
    kind: row.kind as CardKind,
    network: row.network as CardNetwork,
    currency,
    status: row.status as CardStatus,
    maskedNumber: maskNumber(row.first4, row.last4),
    cardholderName: row.cardholderName,
    isLocked: row.isLocked,
    pinBlockedUntil: row.pinBlockedUntil && row.pinBlockedUntil > now ? row.pinBlockedUntil.toISOString() : null,
    limits: {
      perTransaction: amountOf(row.limitPerTransactionMinor, currency),
      daily: amountOf(row.limitDailyMinor, currency),
      monthly: amountOf(row.limitMonthlyMinor, currency),
    },
    createdAt: row.createdAt.toISOString(),
  };
}

function toOpsRequest(request: LimitRequestRow, card: CardRow): OpsLimitRequest {
  const currency = card.currency as CardCurrency;
  return {
    id: request.id,
    cardId: request.cardId,
    state: request.state as OpsLimitRequest['state'],
    requested: {
      perTransaction: amountOf(request.perTransactionMinor, currency),
      daily: amountOf(request.dailyMinor, currency),
      monthly: amountOf(request.monthlyMinor, currency),
    },
    reason: request.reason,
    createdAt: request.createdAt.toISOString(),
    decidedAt: request.decidedAt?.toISOString() ?? null,
    userId: card.userId,
    maskedNumber: maskNumber(card.first4, card.last4),
    currency,
    current: {
      perTransaction: amountOf(card.limitPerTransactionMinor, currency),
      daily: amountOf(card.limitDailyMinor, currency),
      monthly: amountOf(card.limitMonthlyMinor, currency),
    },
    reply: request.reply,
    decidedBy: request.decidedBy,
  };
}

function pageOf<T>(list: T[], query: PageQuery, totalCount: number): Page<T> {
  return {
    list,
    pageID: query.pageID,
    pageSize: query.pageSize,
    totalPage: totalPages(totalCount, query.pageSize),
    totalCount,
  };
}

/**
 * The back office's card operations: limit-change requests
 * decided once with a reply, the physical card's production steps (`CARD_STATUS_STEPS` only), PIN
 * unblocks, and the suspense clearings. No full PAN ever leaves: cards carry `maskedNumber` only.
 */
export function createCardOpsService(deps: CardsDeps) {
  const { db } = deps;

  async function cardFor(tx: DbOrTx, cardId: number): Promise<CardRow> {
    const [row] = await tx.select().from(cards).where(eq(cards.id, cardId)).for('update');
    if (!row) throw new DomainError('NOT_FOUND');
    return row;
  }

  return {
    /** Limit-change requests (optionally of one state): pending ones oldest first, decided ones newest first. */
    async listLimitRequests(query: PageQuery & { state?: OpsLimitRequest['state'] }): Promise<Page<OpsLimitRequest>> {
      const where = query.state ? eq(cardLimitRequests.state, query.state) : undefined;
      const [total] = await db.select({ n: count() }).from(cardLimitRequests).where(where);
      const rows = await db
        .select({ request: cardLimitRequests, card: cards })
        .from(cardLimitRequests)
        .innerJoin(cards, eq(cards.id, cardLimitRequests.cardId))
        .where(where)
        .orderBy(
          sql`CASE WHEN ${cardLimitRequests.state} = 'PENDING' THEN 0 ELSE 1 END`,
          sql`CASE WHEN ${cardLimitRequests.state} = 'PENDING' THEN ${cardLimitRequests.id} ELSE -${cardLimitRequests.id} END`,
        )
        .limit(query.pageSize)
        .offset((query.pageID - 1) * query.pageSize);
      return pageOf(
        rows.map(({ request, card }) => toOpsRequest(request, card)),
        query,
        total?.n ?? 0,
      );
    },

    /**
     * Decide a pending request once: approved, `limits` (or, omitted, the requested ones; a null
     * requested value keeps the card's) become the card's limits in the same transaction, so the
     * next authorisation uses them; rejected, the card is unchanged. `reply` is stored and sent to
     * the user as an in-app message (with push) in the same transaction.
     * @returns the request before and after (the audit row).
     * @throws DomainError NOT_FOUND, CARD_LIMIT_REQUEST_STATE_CHANGED (219); FieldError `limits.*`.
     */
    async decideLimitRequest(
      requestId: number,
      body: DecideLimitRequestBody,
      decidedBy: string,
    ): Promise<{ before: OpsLimitRequest; after: OpsLimitRequest }> {
      const now = deps.now();
      return db.transaction(async (tx) => {
        const [found] = await tx.select().from(cardLimitRequests).where(eq(cardLimitRequests.id, requestId));
        if (!found) throw new DomainError('NOT_FOUND');
        const card = await cardFor(tx, found.cardId);
        const [request] = await tx
          .select()
          .from(cardLimitRequests)
          .where(eq(cardLimitRequests.id, requestId))
          .for('update');
        const before = toOpsRequest(request!, card);
        if (request!.state !== 'PENDING') throw new DomainError('CARD_LIMIT_REQUEST_STATE_CHANGED');
        const currency = card.currency as CardCurrency;
        let applied = card;
        if (body.isApproved) {
          const limits = body.limits
            ? {
                limitPerTransactionMinor: readLimit(body.limits.perTransaction, currency, 'perTransaction'),
                limitDailyMinor: readLimit(body.limits.daily, currency, 'daily'),
                limitMonthlyMinor: readLimit(body.limits.monthly, currency, 'monthly'),
              }
            : {
                limitPerTransactionMinor: request!.perTransactionMinor ?? card.limitPerTransactionMinor,
                limitDailyMinor: request!.dailyMinor ?? card.limitDailyMinor,
                limitMonthlyMinor: request!.monthlyMinor ?? card.limitMonthlyMinor,
              };
          [applied] = (await tx
            .update(cards)
            .set({ ...limits, updatedAt: now })
            .where(eq(cards.id, card.id))
            .returning()) as [CardRow];
        }
        const [decided] = await tx
          .update(cardLimitRequests)
          .set({ state: body.isApproved ? 'APPROVED' : 'REJECTED', decidedAt: now, decidedBy, reply: body.reply })
          .where(and(eq(cardLimitRequests.id, requestId), eq(cardLimitRequests.state, 'PENDING')))
          .returning();
        if (!decided) throw new DomainError('CARD_LIMIT_REQUEST_STATE_CHANGED');
        await deps.notify(
          {
            userId: card.userId,
            category: 'CARD',
            ...(body.isApproved ? cardMessages.limitApproved : cardMessages.limitRejected),
            params: { last4: card.last4, reply: body.reply },
            link: '/my/account/fiscard',
          },
          tx,
        );
        return { before, after: toOpsRequest(decided, applied) };
      });
    },

    /** Cards newest first, filtered by status, kind or user. */
    async listCards(
      query: PageQuery & { status?: CardStatus; kind?: CardKind; userId?: string },
    ): Promise<Page<OpsCard>> {
      const filters: SQL[] = [];
      if (query.status) filters.push(eq(cards.status, query.status));
      if (query.kind) filters.push(eq(cards.kind, query.kind));
      if (query.userId) filters.push(eq(cards.userId, query.userId));
      const where = filters.length ? and(...filters) : undefined;
      const [total] = await db.select({ n: count() }).from(cards).where(where);
      const rows = await db
        .select()
        .from(cards)
        .where(where)
        .orderBy(desc(cards.id))
        .limit(query.pageSize)
        .offset((query.pageID - 1) * query.pageSize);
      const now = deps.now();
      return pageOf(
        rows.map((row) => toOpsCard(row, now)),
        query,
        total?.n ?? 0,
      );
    },

    /**
     * One production step of a physical card (`CARD_STATUS_STEPS`).
     * @throws DomainError NOT_FOUND, CARD_STATUS_STEP_NOT_ALLOWED (220) with from/to.
     */
    async stepCard(cardId: number, to: CardStepTarget): Promise<{ before: OpsCard; after: OpsCard }> {
      const now = deps.now();
      return db.transaction(async (tx) => {
        const card = await cardFor(tx, cardId);
        const allowed: readonly string[] =
          card.kind === 'PHYSICAL' ? (CARD_STATUS_STEPS[card.status as keyof typeof CARD_STATUS_STEPS] ?? []) : [];
        if (!allowed.includes(to)) throw new DomainError('CARD_STATUS_STEP_NOT_ALLOWED', { from: card.status, to });
        const [after] = (await tx
          .update(cards)
          .set({ status: to, updatedAt: now })
          .where(eq(cards.id, cardId))
          .returning()) as [CardRow];
        return { before: toOpsCard(card, now), after: toOpsCard(after, now) };
      });
    },

    /**
     * Lift the block of five wrong PINs.
     * @throws DomainError NOT_FOUND, CARD_PIN_NOT_BLOCKED (221).
     */
    async unblockPin(cardId: number): Promise<{ before: OpsCard; after: OpsCard }> {
      const now = deps.now();
      return db.transaction(async (tx) => {
        const card = await cardFor(tx, cardId);
        if (!card.pinBlockedUntil || card.pinBlockedUntil <= now) throw new DomainError('CARD_PIN_NOT_BLOCKED');
        const [after] = (await tx
          .update(cards)
          .set({ pinBlockedUntil: null, pinWrongCount: 0, updatedAt: now })
          .where(eq(cards.id, cardId))
          .returning()) as [CardRow];
        return { before: toOpsCard(card, now), after: toOpsCard(after, now) };
      });
    },

    /** Clearings and refunds booked to suspense, open ones first, then newest. */
    async listSuspense(query: PageQuery & { state?: 'OPEN' | 'RESOLVED' }): Promise<Page<OpsSuspenseItem>> {
      const where = query.state ? eq(cardSuspenseItems.state, query.state) : undefined;
      const [total] = await db.select({ n: count() }).from(cardSuspenseItems).where(where);
      const rows = await db
        .select({ item: cardSuspenseItems, cardId: cards.id })
        .from(cardSuspenseItems)
        .leftJoin(cards, eq(cards.processorToken, cardSuspenseItems.cardToken))
        .where(where)
        .orderBy(asc(sql`CASE WHEN ${cardSuspenseItems.state} = 'OPEN' THEN 0 ELSE 1 END`), desc(cardSuspenseItems.id))
        .limit(query.pageSize)
        .offset((query.pageID - 1) * query.pageSize);
      return pageOf(
        rows.map(({ item, cardId }) => toOpsSuspense(item, cardId)),
        query,
        total?.n ?? 0,
      );
    },

    /**
     * Resolve one open suspense item, once, in one transaction under the item's and the
     * card's row locks. ASSIGN_TO_CARD books it on the card its token names: a clearing is charged
     * to the card's available balance (SUSPENSE ← CARD_AVAILABLE, which must cover it), a refund
     * credited to it (SUSPENSE → CARD_AVAILABLE); either adds a line to the card's transactions
     * (PURCHASE CLEARED / REFUND COMPLETED) so the holder sees it. WRITE_OFF books it against
     * PLATFORM_CARD_WRITE_OFF (a clearing is the platform's loss, a refund its gain). One journal
     * entry (CARD_SUSPENSE_RESOLVED, keyed by the item); an item of no readable amount moves nothing.
     * @returns the item before and after (for the audit log).
     * @throws DomainError NOT_FOUND, CARD_SUSPENSE_RESOLVED (222), CARD_SUSPENSE_NO_CARD (223),
     *   INSUFFICIENT_BALANCE (130: the card's available balance is below a clearing)
     */
    async resolveSuspense(
      itemId: number,
      resolution: CardSuspenseResolution,
      note: string,
    ): Promise<{ before: OpsSuspenseItem; after: OpsSuspenseItem }> {
      const now = deps.now();
      return db.transaction(async (tx) => {
        const [item] = await tx.select().from(cardSuspenseItems).where(eq(cardSuspenseItems.id, itemId)).for('update');
        if (!item) throw new DomainError('NOT_FOUND');
        const [card] = await tx.select().from(cards).where(eq(cards.processorToken, item.cardToken)).for('update');
        const before = toOpsSuspense(item, card?.id ?? null);
        if (item.state !== 'OPEN') throw new DomainError('CARD_SUSPENSE_RESOLVED');
        const suspense = platformAccount('SUSPENSE', item.currency as AssetCode);
        const isClearing = item.eventType === 'clearing';
        let entryId: number | null = null;
        if (resolution === 'ASSIGN_TO_CARD') {
          if (!card) throw new DomainError('CARD_SUSPENSE_NO_CARD');
          const available = availableAccount(card);
          if (isClearing && (await accountBalance(tx, available)) < item.amountMinor)
            throw new DomainError('INSUFFICIENT_BALANCE');
          if (item.amountMinor > 0n) {
            const { entry } = await postEntry(tx, {
              kind: 'CARD_SUSPENSE_RESOLVED',
              reference: `card:${card.id}`,
              idempotencyKey: `card-suspense-resolve:${item.id}`,
              postings: isClearing
                ? transfer(available, suspense, item.amountMinor)
                : transfer(suspense, available, item.amountMinor),
              metadata: { suspenseItemId: String(item.id), resolution },
            });
            entryId = entry.id;
            const amountText = toDecimalString(item.amountMinor, item.currency as CardCurrency);
            await tx.insert(cardTransactions).values({
              cardId: card.id,
              kind: isClearing ? 'PURCHASE' : 'REFUND',
              status: isClearing ? 'CLEARED' : 'COMPLETED',
              amountMinor: item.amountMinor,
              originalAmount: amountText,
              originalCurrency: item.currency,
              idempotencyKey: `suspense:${item.id}`,
              createdAt: now,
              updatedAt: now,
            });
          }
        } else if (item.amountMinor > 0n) {
          const writeOff = platformAccount('PLATFORM_CARD_WRITE_OFF', item.currency as AssetCode);
          const { entry } = await postEntry(tx, {
            kind: 'CARD_SUSPENSE_RESOLVED',
            reference: `card-suspense:${item.id}`,
            idempotencyKey: `card-suspense-resolve:${item.id}`,
            postings: isClearing
              ? transfer(writeOff, suspense, item.amountMinor)
              : transfer(suspense, writeOff, item.amountMinor),
            metadata: { suspenseItemId: String(item.id), resolution },
          });
          entryId = entry.id;
        }
        const [after] = await tx
          .update(cardSuspenseItems)
          .set({ state: 'RESOLVED', resolution, note, resolvedAt: now, resolutionEntryId: entryId })
          .where(eq(cardSuspenseItems.id, item.id))
          .returning();
        return { before, after: toOpsSuspense(after!, card?.id ?? null) };
      });
    },
  };
}

/** The back office's side of the cards service. */
export type CardOpsService = ReturnType<typeof createCardOpsService>;
