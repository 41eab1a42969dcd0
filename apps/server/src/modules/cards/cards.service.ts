import { randomUUID } from 'node:crypto';
import {
  CARD_CURRENCIES,
  CARD_NETWORKS,
  CARD_REVEAL_TTL_MS,
  CARD_TOPUP_COINS,
  CARD_TOPUP_QUOTE_TTL_MS,
  type Card,
  type CardConfig,
  type CardCurrency,
  type CardDetail,
  type CardKind,
  type CardLimitRequest,
  type CardNetwork,
  type CardReveal,
  type CardSpendRules,
  type CardTopUpCoin,
  type CardTopUpQuote,
  type CardTransaction,
  type ShippingAddress,
} from '@meridian/contracts/cards';
import type { Locale } from '@meridian/contracts/locale';
import { ASSET_PRECISION, type AssetCode, readAmountMinor } from '@meridian/contracts/money';
import { formatMoney } from '@meridian/contracts/money-format';
import { type Page, totalPages } from '@meridian/contracts/pagination';
import Decimal from 'decimal.js';
import { and, count, desc, eq, inArray, isNull, notInArray, sql } from 'drizzle-orm';
import type { HoldingsChecker } from '../../platform/app-module.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { REQUEST_HASH_IN_STORE, type SettleAnswer } from '../../platform/db/idempotency.ts';
import { isSqlState, SQLSTATE_UNIQUE_VIOLATION } from '../../platform/db/sql-state.ts';
import { DomainError, FieldError } from '../../platform/http/errors.ts';
import { accountBalance, postEntry } from '../ledger/ledger.service.ts';
import { platformAccount, userAccount } from '../ledger/ledger.types.ts';
import { createCardCorporateService } from './cards.corporate.ts';
import { createCardEventsService } from './cards.events.ts';
import { createCardOpsService } from './cards.ops.ts';
import {
  availableAccount,
  type CardRow,
  type CardSettingsRow,
  type CardsDeps,
  DEFAULT_FX_RATES,
  DEFAULT_SETTINGS,
  defaultLimitsMinor,
  type FactorCheck,
  heldAccount,
  isPromotionOn,
  money,
  NO_FACTORS,
  readSettings,
  SETTINGS_ID,
  toCard,
  toTransaction,
} from './cards.internal.ts';
import type { IssuedCard } from './cards.processor.ts';
import { cardAppliedMessage, cardToppedUpMessage } from './cards.messages.ts';
import { cardRateHistory } from './cards.settings.ts';
import { cardLimitRequests, cardSettings, cardTopUpQuotes, cardTransactions, cards } from './cards.tables.ts';

export type { CardsDeps, FactorCheck } from './cards.internal.ts';

/** Statuses of a physical card that no longer count toward the settings' maximum (3). */
const PHYSICAL_NOT_COUNTED = ['CANCELLED', 'RETURNED', 'EXPIRED'];

/** Minor units of a top-up coin per one unit (all have 6 decimals). */
const COIN_UNIT_MINOR = 1_000_000n;

/**
 * Units of `currency` one `coin` buys at a top-up: EURE is EUR (1 for a EUR card, exactly; else the
 * table's units of `currency` per EUR); a USD stablecoin is USD (1 for a USD card; else the table's
 * units per USD). `rates` is the settings' table (units per 1 USD); a missing rate falls back to the
 * default table.
 */
export function topUpRate(coin: CardTopUpCoin, currency: CardCurrency, rates: Record<string, string>): Decimal {
  const perUsd = (code: CardCurrency) => new Decimal(rates[code] ?? DEFAULT_FX_RATES[code]);
  if (coin === 'EURE') return currency === 'EUR' ? new Decimal(1) : perUsd(currency).div(perUsd('EUR'));
  return currency === 'USD' ? new Decimal(1) : perUsd(currency);
}

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

/** Amount in the card's currency from a wire decimal, refused on `field`. */
function readCardAmount(text: string | null, currency: CardCurrency, field: string): bigint | null {
  if (text === null) return null;
  const read = readAmountMinor(text, currency);
  if ('refusal' in read) throw new FieldError(field, read.refusal.messageKey, read.refusal.params);
  return read.amountMinor;
}

/**
 * Cards (card, PIN, basic verification, declines, constants):
 * applying and binding, top-ups at a locked rate, lock, reveal, PIN, spend rules, limit-change
 * requests, and (from `cards.events.ts`) the processor's webhook and the authorisation decision.
 * Every balance change is one ledger entry (docs/cards.md).
 */
export function createCardsService(deps: CardsDeps) {
  const { db, processor } = deps;
  const events = createCardEventsService(deps);
  const ops = createCardOpsService(deps);

  async function ownCard(dbOrTx: DbOrTx, userId: string, cardId: number): Promise<CardRow> {
    const [row] = await dbOrTx
      .select()
      .from(cards)
      .where(and(eq(cards.id, cardId), eq(cards.userId, userId)));
    if (!row) throw new DomainError('NOT_FOUND');
    return row;
  }

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

  const service = {
    /** The back office's card operations (`cards.ops.ts`). */
    ops,
    ...events,

    /** Every card's holder: card id (as the ledger's owner id) → user id (proof of liabilities). */
    async holdersByCardId(dbOrTx: DbOrTx = db): Promise<Map<string, string>> {
      const rows = await dbOrTx.select({ id: cards.id, userId: cards.userId }).from(cards);
      return new Map(rows.map((row) => [String(row.id), row.userId]));
    },

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

    /**
     * `POST card/:id/topup/quote`: `amountMinor` of `coin` to the card at a locked rate for 30 s.
     * The amount must lie within the settings' top-up minimum and maximum (units of the coin).
     * USD stablecoins (inside their band) count 1:1 as USD: a USD card gets 1, EUR/GBP/JPY cards the
     * rate table's units per USD. EURE counts 1:1 as EUR: a EUR card gets exactly 1 (locked 1:1,
     * no rate in it, so no quote risk), another card the table's units of its currency per EUR.
     * The credit is rounded DOWN (owed to the user).
     * @throws DomainError NOT_FOUND, CARD_NOT_ACTIVE, CARD_COIN_OFF_PEG (214), AMOUNT_BELOW_MIN (132: under the minimum, or a credit under one minor unit), AMOUNT_ABOVE_MAX (133)
     */
    async quoteTopUp(
      userId: string,
      cardId: number,
      coin: CardTopUpCoin,
      amountMinor: bigint,
    ): Promise<CardTopUpQuote> {
      const card = await ownCard(db, userId, cardId);
      if (card.status !== 'ACTIVE') throw new DomainError('CARD_NOT_ACTIVE');
      const settings = await readSettings(db);
      if (amountMinor < settings.topUpMinMinor)
        throw new DomainError('AMOUNT_BELOW_MIN', {
          amount: formatMoney(settings.topUpMinMinor, coin, { unit: 'none', rounding: 'up' }),
          unit: coin,
        });
      if (amountMinor > settings.topUpMaxMinor)
        throw new DomainError('AMOUNT_ABOVE_MAX', {
          amount: formatMoney(settings.topUpMaxMinor, coin, { unit: 'none', rounding: 'down' }),
          unit: coin,
        });
      if (!(await deps.isAtPar(coin))) throw new DomainError('CARD_COIN_OFF_PEG', { coin });
      const currency = card.currency as CardCurrency;
      const rate = topUpRate(coin, currency, settings.fxRates);
      // coin minor (6 decimals) → card minor (2 or 0 decimals) at `rate` per coin, rounded down.
      const creditMinor = BigInt(
        new Decimal(amountMinor.toString())
          .mul(rate)
          .mul(new Decimal(10).pow(ASSET_PRECISION[currency]))
          .div(COIN_UNIT_MINOR.toString())
          .toDecimalPlaces(0, Decimal.ROUND_DOWN)
          .toFixed(),
      );
      if (creditMinor <= 0n) throw new DomainError('AMOUNT_BELOW_MIN', { amount: money(1n, currency), unit: currency });
      const now = deps.now();
      const id = randomUUID();
      const expiresAt = new Date(now.getTime() + CARD_TOPUP_QUOTE_TTL_MS);
      await db.insert(cardTopUpQuotes).values({
        id,
        cardId,
        userId,
        coin,
        amountMinor,
        creditMinor,
        rate: rate.toFixed(),
        expiresAt,
        createdAt: now,
      });
      return {
        quoteId: id,
        cardId,
        coin,
        amount: money(amountMinor, coin),
        currency,
        creditAmount: money(creditMinor, currency),
        rate: rate.toFixed(),
        expiresAt: expiresAt.toISOString(),
      };
    },

    /**
     * `POST card/:id/topup`: execute a quote exactly once — the coin leaves the wallet for
     * PLATFORM_CARD_FUNDING and the card is credited from it, one entry (kind CARD_TOPUP). The quote
     * is claimed with `UPDATE … WHERE used_at IS NULL` inside the entry's transaction, so two
     * executions of one quote move money once. A retry under the same Idempotency-Key is answered
     * by the route layer's one store (docs/api.md "Idempotency"), whose `settleAnswer` stores the
     * answer in the entry's transaction.
     * @throws DomainError NOT_FOUND, QUOTE_EXPIRED (131), CARD_QUOTE_USED (213), INSUFFICIENT_BALANCE, CARD_NOT_ACTIVE, ACCOUNT_FROZEN, CAPTCHA_FAILED
     */
    async topUp(
      userId: string,
      cardId: number,
      quoteId: string,
      idempotencyKey: string | undefined,
      factors: FactorCheck = NO_FACTORS,
      settleAnswer?: SettleAnswer,
    ): Promise<CardTransaction> {
      if (!idempotencyKey) throw new FieldError('Idempotency-Key', 'validation.required');
      const card = await ownCard(db, userId, cardId);
      const currency = card.currency as CardCurrency;
      const [quote] = await db
        .select()
        .from(cardTopUpQuotes)
        .where(
          and(eq(cardTopUpQuotes.id, quoteId), eq(cardTopUpQuotes.userId, userId), eq(cardTopUpQuotes.cardId, cardId)),
        );
      if (!quote) throw new DomainError('NOT_FOUND');
      if (quote.usedAt) throw new DomainError('CARD_QUOTE_USED');
      const now = deps.now();
      if (quote.expiresAt <= now) throw new DomainError('QUOTE_EXPIRED');
      if (card.status !== 'ACTIVE') throw new DomainError('CARD_NOT_ACTIVE');
      await deps.identity.assertNotFrozen(userId);
      const coin = quote.coin as CardTopUpCoin;
      const wallet = userAccount(userId, 'USER_AVAILABLE', coin);
      if ((await accountBalance(db, wallet)) < quote.amountMinor) throw new DomainError('INSUFFICIENT_BALANCE');
      await factors.check();
      const row = await db.transaction(async (tx) => {
        const claimed = await tx
          .update(cardTopUpQuotes)
          .set({ usedAt: now })
          .where(and(eq(cardTopUpQuotes.id, quoteId), isNull(cardTopUpQuotes.usedAt)))
          .returning({ id: cardTopUpQuotes.id });
        if (claimed.length === 0) throw new DomainError('CARD_QUOTE_USED');
        await deps.identity.assertNotFrozen(userId, tx);
        await postEntry(tx, {
          kind: 'CARD_TOPUP',
          reference: `card:${cardId}`,
          idempotencyKey: `card-topup:${quoteId}`,
          postings: [
            { account: wallet, amountMinor: -quote.amountMinor },
            { account: platformAccount('PLATFORM_CARD_FUNDING', coin), amountMinor: quote.amountMinor },
            { account: platformAccount('PLATFORM_CARD_FUNDING', currency), amountMinor: -quote.creditMinor },
            { account: availableAccount(card), amountMinor: quote.creditMinor },
          ],
          metadata: { quoteId, rate: quote.rate },
        });
        const [created] = await tx
          .insert(cardTransactions)
          .values({
            cardId,
            kind: 'TOPUP',
            status: 'COMPLETED',
            amountMinor: quote.creditMinor,
            originalAmount: money(quote.creditMinor, currency),
            originalCurrency: currency,
            sourceCoin: coin,
            sourceAmountMinor: quote.amountMinor,
            // The quote id keeps a retry under another key from matching this top-up.
            processorAuthId: `quote:${quoteId}`,
            idempotencyKey,
            createdAt: now,
            updatedAt: now,
          })
          .returning();
        const credit = { amount: money(quote.creditMinor, currency), asset: currency };
        const paid = { amount: money(quote.amountMinor, coin), asset: coin };
        await deps.notify(cardToppedUpMessage({ userId, last4: card.last4, credit, paid }), tx);
        await factors.consume(tx);
        await settleAnswer?.(tx, toTransaction(created!, currency));
        return created!;
      });
      return toTransaction(row, currency);
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

    /** Move a card to another status (the back office's production and shipping steps; tests). */
    async setStatus(
      cardId: number,
      status: 'PROCESSING' | 'SHIPPED' | 'ACTIVE' | 'FROZEN' | 'CANCELLED',
    ): Promise<void> {
      await db.update(cards).set({ status, updatedAt: deps.now() }).where(eq(cards.id, cardId));
    },

    /** The processor token of a card (the sandbox CLI routes). */
    async tokenOf(cardId: number): Promise<string | null> {
      const [row] = await db.select({ token: cards.processorToken }).from(cards).where(eq(cards.id, cardId));
      return row?.token ?? null;
    },

    /**
     * What the user's cards hold (available + held) per currency, minor units: the account
     * overview's CardAccount (the wallet module's `CardHoldings`).
     */
    async heldMinorByAsset(userId: string): Promise<Map<AssetCode, bigint>> {
      const rows = await db.select().from(cards).where(eq(cards.userId, userId));
      const totals = new Map<AssetCode, bigint>();
      for (const row of rows) {
        const currency = row.currency as CardCurrency;
        const [a, h] = await Promise.all([
          accountBalance(db, availableAccount(row)),
          accountBalance(db, heldAccount(row)),
        ]);
        if (a + h !== 0n) totals.set(currency, (totals.get(currency) ?? 0n) + a + h);
      }
      return totals;
    },

    /** USD per one unit of a card currency from the rate table (units per USD), 20 significant digits; null when absent. */
    async usdPerUnit(asset: AssetCode): Promise<string | null> {
      const rates: Record<string, string> = (await readSettings(db)).fxRates;
      const rate = rates[asset];
      return rate ? new Decimal(1).div(rate).toFixed() : null;
    },

    /** The rate history of a card currency, USD per unit, oldest first (`cardRateHistory`; statements). */
    usdPerUnitHistory: (currency: 'EUR' | 'GBP' | 'JPY') => cardRateHistory(db, deps.settingsHistory, currency),

    /** Account closure is refused while a card holds a balance or a hold. Reasons in `locale`. */
    holdingsChecker: {
      reasonsToRefuseClosure: async (userId: string, locale: Locale) => {
        const rows = await db
          .select()
          .from(cards)
          .where(
            and(
              eq(cards.userId, userId),
              inArray(cards.status, ['UNDER_REVIEW', 'PROCESSING', 'SHIPPED', 'ACTIVE', 'FROZEN']),
            ),
          );
        const reasons: string[] = [];
        for (const row of rows) {
          const currency = row.currency as CardCurrency;
          const totalMinor =
            (await accountBalance(db, availableAccount(row))) + (await accountBalance(db, heldAccount(row)));
          if (totalMinor === 0n) continue;
          const amount = formatMoney(totalMinor, currency, { locale });
          reasons.push(
            locale === 'zh-HK' ? `尾號 ${row.last4} 的卡（${amount}）` : `card ending ${row.last4} (${amount})`,
          );
        }
        return reasons;
      },
    } satisfies HoldingsChecker,
  };
  // Employee cards of PRO accounts (`cards.corporate.ts`): an application through `apply` above.
  const corporate = createCardCorporateService({
    isApprovedPro: (userId) => deps.corporate.isApprovedPro(userId),
    apply: (userId, input, idempotencyKey, factors, settleAnswer) =>
      service.apply(userId, input, idempotencyKey, factors, settleAnswer),
    standardLimits: async (currency) => defaultLimitsMinor(await readSettings(db), currency),
  });
  return { ...service, ...corporate };
}

function toLimitRequest(row: typeof cardLimitRequests.$inferSelect, currency: CardCurrency): CardLimitRequest {
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

/** The cards service: user calls and the processor's side. */
export type CardsService = ReturnType<typeof createCardsService>;
