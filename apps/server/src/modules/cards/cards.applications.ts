import {
  CARD_CURRENCIES,
  CARD_NETWORKS,
  CARD_TOPUP_COINS,
  type Card,
  type CardConfig,
  type CardCurrency,
  type CardKind,
  type CardNetwork,
  type ShippingAddress,
} from '@meridian/contracts/cards';
import { and, count, desc, eq, notInArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { REQUEST_HASH_IN_STORE, type SettleAnswer } from '../../platform/db/idempotency.ts';
import { DomainError, FieldError } from '../../platform/http/errors.ts';
import { accountBalance, postEntry } from '../ledger/ledger.service.ts';
import { platformAccount, userAccount } from '../ledger/ledger.types.ts';
import {
  type CardSettingsRow,
  type CardsDeps,
  DEFAULT_SETTINGS,
  defaultLimitsMinor,
  type FactorCheck,
  isPromotionOn,
  money,
  NO_FACTORS,
  readSettings,
  SETTINGS_ID,
  toCard,
} from './cards.internal.ts';
import type { IssuedCard } from './cards.processor.ts';
import { cardAppliedMessage } from './cards.messages.ts';
import { cardSettings, cardTransactions, cards } from './cards.tables.ts';

/** Statuses of a physical card that no longer count toward the settings' maximum (3). */
const PHYSICAL_NOT_COUNTED = ['CANCELLED', 'RETURNED', 'EXPIRED'];

/** What the apply call receives (the contract's parsed body without the factors). */
export interface ApplyCardInput {
  kind: CardKind;
  network: CardNetwork;
  currency: CardCurrency;
  cardholderName: string;
  shippingAddress?: ShippingAddress | undefined;
  /**
   * Set for a PRO account's employee card (`cards.corporate.ts`): the employee's name, stored in
   * `cards.employee_name`, and the card's limits in minor units of `currency` in place of the
   * defaults — the same limit columns the authorisation decision checks.
   */
  employee?: EmployeeCardTerms | undefined;
}

/** An employee card's name and per-card limits (minor units of the card's currency). */
export interface EmployeeCardTerms {
  name: string;
  limitsMinor: { perTransaction: bigint; daily: bigint; monthly: bigint };
}

/** Applying for a card and binding one, the settings the application reads, and the user's list. */
export function createCardApplications(deps: CardsDeps) {
  const { db, processor } = deps;

  async function physicalCount(dbOrTx: DbOrTx, userId: string): Promise<number> {
    const [row] = await dbOrTx
      .select({ n: count() })
      .from(cards)
      .where(and(eq(cards.userId, userId), eq(cards.kind, 'PHYSICAL'), notInArray(cards.status, PHYSICAL_NOT_COUNTED)));
    return row?.n ?? 0;
  }

  /** Serialise one user's applications and bindings (the 3-card count), on PGlite and PostgreSQL alike. */
  async function lockUserCards(tx: DbOrTx, userId: string): Promise<void> {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`cards:${userId}`}))`);
  }

  /** The fee an application of `kind` charges now under `settings`, USDT minor units. */
  function feeOf(kind: CardKind, settings: CardSettingsRow): bigint {
    if (kind === 'PHYSICAL') return settings.physicalFeeUsdtMinor;
    return isPromotionOn(settings, deps.now()) ? 0n : settings.virtualFeeUsdtMinor;
  }

  /** Refuse a physical card beyond the settings' maximum. @throws DomainError CARD_PHYSICAL_LIMIT_REACHED (210) */
  async function assertPhysicalRoom(dbOrTx: DbOrTx, userId: string, max: number): Promise<void> {
    if ((await physicalCount(dbOrTx, userId)) >= max) throw new DomainError('CARD_PHYSICAL_LIMIT_REACHED', { max });
  }

  function newCardValues(
    userId: string,
    issued: IssuedCard,
    kind: CardKind,
    currency: CardCurrency,
    settings: CardSettingsRow,
    employee?: EmployeeCardTerms,
  ) {
    const limits = employee?.limitsMinor ?? defaultLimitsMinor(settings, currency);
    return {
      userId,
      kind,
      network: issued.network,
      currency,
      processorToken: issued.token,
      first4: issued.first4,
      last4: issued.last4,
      expiryMonth: issued.expiryMonth,
      expiryYear: issued.expiryYear,
      cardholderName: issued.cardholderName,
      employeeName: employee?.name ?? null,
      limitPerTransactionMinor: limits.perTransaction,
      limitDailyMinor: limits.daily,
      limitMonthlyMinor: limits.monthly,
    };
  }

  return {
    /** Seed the settings row (fees, card count, promotion, currencies, top-up bounds, limits, rates) when absent. */
    async seed(): Promise<void> {
      await db.insert(cardSettings).values(DEFAULT_SETTINGS).onConflictDoNothing();
    },

    /**
     * Change settings directly, without audit or four eyes (tests and CLIs only; operators go
     * through `cards.settings.ts`, whose routes audit every change).
     */
    async updateSettings(change: Partial<Omit<CardSettingsRow, 'id' | 'updatedAt'>>): Promise<void> {
      await this.seed();
      await db
        .update(cardSettings)
        .set({ ...change, updatedAt: deps.now() })
        .where(eq(cardSettings.id, SETTINGS_ID));
    },

    /** `GET card/config`. */
    async config(userId: string): Promise<CardConfig> {
      const settings = await readSettings(db);
      const now = deps.now();
      const used = await physicalCount(db, userId);
      return {
        networks: [...CARD_NETWORKS],
        currencies: [...CARD_CURRENCIES],
        topUpCoins: await Promise.all(
          CARD_TOPUP_COINS.map(async (coin) => ({ coin, isAtPar: await deps.isAtPar(coin).catch(() => false) })),
        ),
        physicalFee: { coin: 'USDT', amount: money(settings.physicalFeeUsdtMinor, 'USDT') },
        virtualFee: { coin: 'USDT', amount: money(settings.virtualFeeUsdtMinor, 'USDT') },
        isVirtualFeeWaived: isPromotionOn(settings, now),
        promotionEndsAt: settings.isPromotionEnabled ? (settings.promotionEndsAt?.toISOString() ?? null) : null,
        physicalCardsMax: settings.physicalCardsMax,
        physicalCardsLeft: Math.max(0, settings.physicalCardsMax - used),
        virtualCurrencies: CARD_CURRENCIES.filter((currency) => settings.virtualCurrencies.includes(currency)),
        topUpMin: money(settings.topUpMinMinor, 'USDT'),
        topUpMax: money(settings.topUpMaxMinor, 'USDT'),
      };
    },

    /** `GET card/list`: the caller's cards, newest first. */
    async list(userId: string): Promise<Card[]> {
      const rows = await db.select().from(cards).where(eq(cards.userId, userId)).orderBy(desc(cards.id));
      const now = deps.now();
      return Promise.all(rows.map((row) => toCard(db, row, now)));
    },

    /**
     * `POST card/apply`: a virtual card (ACTIVE at once; in a currency the settings offer; no fee
     * while the promotion lasts, the settings' virtual fee otherwise) or a physical one (UNDER_REVIEW;
     * at most the settings' maximum per user, 3 by default; the settings' production fee, 10 USDT by
     * default, taken from the wallet in ONE journal entry with the application row). The fee, the
     * maximum and the new card's limits are read from the settings at the application. Every refusal comes before the
     * processor issues anything, and the fee's entry and the card row commit together, so an
     * application without the fee charges nothing and creates nothing; `settleAnswer` stores the
     * answer in that transaction too (docs/api.md "Idempotency").
     * @throws FieldError Idempotency-Key (missing)
     * @throws DomainError CARD_PHYSICAL_LIMIT_REACHED (210), CARD_CURRENCY_NOT_OFFERED (310), INSUFFICIENT_BALANCE (130), ACCOUNT_FROZEN, CONFLICT, CAPTCHA_FAILED
     */
    async apply(
      userId: string,
      input: ApplyCardInput,
      idempotencyKey: string | undefined,
      factors: FactorCheck = NO_FACTORS,
      settleAnswer?: SettleAnswer,
    ): Promise<Card> {
      if (!idempotencyKey) throw new FieldError('Idempotency-Key', 'validation.required');
      const { employee } = input;
      const settings = await readSettings(db);
      if (input.kind === 'VIRTUAL' && !settings.virtualCurrencies.includes(input.currency))
        throw new DomainError('CARD_CURRENCY_NOT_OFFERED', {
          currency: input.currency,
          currencies: CARD_CURRENCIES.filter((currency) => settings.virtualCurrencies.includes(currency)).join(', '),
        });
      if (input.kind === 'PHYSICAL') await assertPhysicalRoom(db, userId, settings.physicalCardsMax);
      await deps.identity.assertNotFrozen(userId);
      const feeMinor = feeOf(input.kind, settings);
      const wallet = userAccount(userId, 'USER_AVAILABLE', 'USDT');
      if (feeMinor > 0n && (await accountBalance(db, wallet)) < feeMinor) throw new DomainError('INSUFFICIENT_BALANCE');
      await factors.check();
      const issued = await processor.createCard({ network: input.network, cardholderName: input.cardholderName });
      const now = deps.now();
      const row = await db.transaction(async (tx) => {
        await lockUserCards(tx, userId);
        if (input.kind === 'PHYSICAL') await assertPhysicalRoom(tx, userId, settings.physicalCardsMax);
        await deps.identity.assertNotFrozen(userId, tx);
        const [card] = await tx
          .insert(cards)
          .values({
            ...newCardValues(userId, issued, input.kind, input.currency, settings, employee),
            status: input.kind === 'VIRTUAL' ? 'ACTIVE' : 'UNDER_REVIEW',
            shippingAddress: input.shippingAddress ?? null,
            idempotencyKey,
            requestHash: REQUEST_HASH_IN_STORE,
            createdAt: now,
            updatedAt: now,
          })
          .returning();
        if (feeMinor > 0n) {
          await postEntry(tx, {
            kind: 'CARD_FEE',
            reference: `card:${card!.id}`,
            idempotencyKey: `card-fee:${card!.id}`,
            postings: [
              { account: wallet, amountMinor: -feeMinor },
              { account: platformAccount('PLATFORM_FEES', 'USDT'), amountMinor: feeMinor },
            ],
            metadata: { kind: input.kind },
          });
          await tx.insert(cardTransactions).values({
            cardId: card!.id,
            kind: 'FEE',
            status: 'COMPLETED',
            amountMinor: 0n,
            originalAmount: money(feeMinor, 'USDT'),
            originalCurrency: 'USDT',
            sourceCoin: 'USDT',
            sourceAmountMinor: feeMinor,
            createdAt: now,
            updatedAt: now,
          });
        }
        const fee = feeMinor > 0n ? money(feeMinor, 'USDT') : null;
        await deps.notify(cardAppliedMessage({ ...card!, fee }), tx);
        await factors.consume(tx);
        await settleAnswer?.(tx, await toCard(tx, card!, now));
        return card!;
      });
      return toCard(db, row, now);
    },

    /**
     * `POST card/bind`: bind a pre-activated physical card (corporate customers receive them) with
     * its number and activation code; ACTIVE at once, no fee (it was produced for the company).
     * Counts toward the settings' maximum of physical cards (3 by default).
     * @throws DomainError CARD_BIND_FAILED (212: no such card in stock, wrong code, or already bound), CARD_PHYSICAL_LIMIT_REACHED, ACCOUNT_FROZEN
     */
    async bind(userId: string, input: { cardNumber: string; activationCode: string }): Promise<Card> {
      const settings = await readSettings(db);
      await assertPhysicalRoom(db, userId, settings.physicalCardsMax);
      await deps.identity.assertNotFrozen(userId);
      const issued = await processor.claimStockCard({ pan: input.cardNumber, activationCode: input.activationCode });
      if (!issued) throw new DomainError('CARD_BIND_FAILED');
      const now = deps.now();
      const row = await db.transaction(async (tx) => {
        await lockUserCards(tx, userId);
        await assertPhysicalRoom(tx, userId, settings.physicalCardsMax);
        const [card] = await tx
          .insert(cards)
          .values({
            ...newCardValues(userId, issued, 'PHYSICAL', 'USD', settings),
            status: 'ACTIVE',
            isBound: true,
            createdAt: now,
            updatedAt: now,
          })
          .returning();
        return card!;
      });
      return toCard(db, row, now);
    },
  };
}
