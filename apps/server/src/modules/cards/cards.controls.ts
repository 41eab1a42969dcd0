import {
  CARD_REVEAL_TTL_MS,
  type Card,
  type CardCurrency,
  type CardDetail,
  type CardReveal,
  type CardSpendRules,
  type CardTransaction,
} from '@meridian/contracts/cards';
import { type Page, totalPages } from '@meridian/contracts/pagination';
import { and, count, desc, eq } from 'drizzle-orm';
import { DomainError } from '../../platform/http/errors.ts';
import {
  type CardRow,
  type CardsDeps,
  type FactorCheck,
  money,
  NO_FACTORS,
  ownCard,
  toCard,
  toTransaction,
} from './cards.internal.ts';
import { cardLimitRequests, cardTransactions, cards } from './cards.tables.ts';
import { toLimitRequest } from './cards.limits.ts';

/** One card's page and controls: detail, lock, reveal, PIN, spend rules, transactions. */
export function createCardControls(deps: CardsDeps) {
  const { db, processor } = deps;

  return {
    /** `GET card/:id`. @throws DomainError NOT_FOUND */
    async detail(userId: string, cardId: number): Promise<CardDetail> {
      const row = await ownCard(db, userId, cardId);
      const currency = row.currency as CardCurrency;
      const [pending] = await db
        .select()
        .from(cardLimitRequests)
        .where(and(eq(cardLimitRequests.cardId, cardId), eq(cardLimitRequests.state, 'PENDING')));
      const amount = (minor: bigint | null) => (minor === null ? null : money(minor, currency));
      return {
        ...(await toCard(db, row, deps.now())),
        limits: {
          perTransaction: amount(row.limitPerTransactionMinor),
          daily: amount(row.limitDailyMinor),
          monthly: amount(row.limitMonthlyMinor),
        },
        spendRules: this.rulesOf(row),
        pendingLimitRequest: pending ? toLimitRequest(pending, currency) : null,
        shippingAddress: row.shippingAddress ?? null,
      };
    },

    rulesOf(row: CardRow): CardSpendRules {
      const currency = row.currency as CardCurrency;
      return {
        blockedMccs: row.blockedMccs,
        perTransactionMax:
          row.rulePerTransactionMaxMinor === null ? null : money(row.rulePerTransactionMaxMinor, currency),
        askAbove: row.ruleAskAboveMinor === null ? null : money(row.ruleAskAboveMinor, currency),
      };
    },

    /** `POST card/:id/lock`: lock or unlock at once (mirrored at the processor). @throws DomainError NOT_FOUND, CARD_NOT_ACTIVE */
    async setLock(userId: string, cardId: number, isLocked: boolean): Promise<Card> {
      const card = await ownCard(db, userId, cardId);
      if (card.status !== 'ACTIVE') throw new DomainError('CARD_NOT_ACTIVE');
      const [row] = await db
        .update(cards)
        .set({ isLocked, updatedAt: deps.now() })
        .where(eq(cards.id, cardId))
        .returning();
      await processor.setLocked(card.processorToken, isLocked);
      return toCard(db, row!, deps.now());
    },

    /**
     * `POST card/:id/reveal`: the full details from the processor, after the security check; the
     * answer is not stored, and the page hides it at `hideAt` (60 s).
     * @throws DomainError NOT_FOUND, CARD_NOT_ACTIVE, CAPTCHA_FAILED
     */
    async reveal(userId: string, cardId: number, factors: FactorCheck = NO_FACTORS): Promise<CardReveal> {
      const card = await ownCard(db, userId, cardId);
      if (!['ACTIVE', 'SHIPPED'].includes(card.status)) throw new DomainError('CARD_NOT_ACTIVE');
      await factors.check();
      await factors.consume(db);
      const details = await processor.revealCard(card.processorToken);
      deps.log.info({ cardId, userId }, 'card details revealed');
      return {
        ...details,
        cardholderName: card.cardholderName,
        hideAt: new Date(deps.now().getTime() + CARD_REVEAL_TTL_MS).toISOString(),
      };
    },

    /** `POST card/:id/pin`: set or change the PIN at the processor, after the security check. */
    async setPin(userId: string, cardId: number, pin: string, factors: FactorCheck = NO_FACTORS): Promise<Card> {
      const card = await ownCard(db, userId, cardId);
      if (['CANCELLED', 'EXPIRED', 'RETURNED'].includes(card.status)) throw new DomainError('CARD_NOT_ACTIVE');
      await factors.check();
      await processor.setPin(card.processorToken, pin);
      await factors.consume(db);
      const [row] = await db
        .update(cards)
        .set({ isPinSet: true, updatedAt: deps.now() })
        .where(eq(cards.id, cardId))
        .returning();
      return toCard(db, row!, deps.now());
    },

    /** `GET card/:id/rules`. */
    async getRules(userId: string, cardId: number): Promise<CardSpendRules> {
      return this.rulesOf(await ownCard(db, userId, cardId));
    },

    /**
     * `PUT card/:id/rules`: the user's spend rules. Amounts come parsed in `currency`, which must
     * be the card's. @throws DomainError NOT_FOUND, CARD_CURRENCY_MISMATCH (215)
     */
    async setRules(
      userId: string,
      cardId: number,
      body: {
        currency: CardCurrency;
        blockedMccs: string[];
        perTransactionMaxMinor: bigint | null;
        askAboveMinor: bigint | null;
      },
    ): Promise<CardSpendRules> {
      const card = await ownCard(db, userId, cardId);
      if (card.currency !== body.currency) throw new DomainError('CARD_CURRENCY_MISMATCH', { currency: card.currency });
      const [row] = await db
        .update(cards)
        .set({
          blockedMccs: body.blockedMccs,
          rulePerTransactionMaxMinor: body.perTransactionMaxMinor,
          ruleAskAboveMinor: body.askAboveMinor,
          updatedAt: deps.now(),
        })
        .where(eq(cards.id, cardId))
        .returning();
      return this.rulesOf(row!);
    },

    /** `GET card/:id/transactions`: newest first. */
    async transactions(
      userId: string,
      cardId: number,
      page: { pageID: number; pageSize: number },
    ): Promise<Page<CardTransaction>> {
      const card = await ownCard(db, userId, cardId);
      const [total] = await db.select({ n: count() }).from(cardTransactions).where(eq(cardTransactions.cardId, cardId));
      const rows = await db
        .select()
        .from(cardTransactions)
        .where(eq(cardTransactions.cardId, cardId))
        .orderBy(desc(cardTransactions.id))
        .limit(page.pageSize)
        .offset((page.pageID - 1) * page.pageSize);
      const totalCount = total?.n ?? 0;
      return {
        list: rows.map((row) => toTransaction(row, card.currency as CardCurrency)),
        pageID: page.pageID,
        pageSize: page.pageSize,
        totalPage: totalPages(totalCount, page.pageSize),
        totalCount,
      };
    },
  };
}
