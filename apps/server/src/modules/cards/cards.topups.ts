import { randomUUID } from 'node:crypto';
import {
  CARD_TOPUP_QUOTE_TTL_MS,
  type CardCurrency,
  type CardTopUpCoin,
  type CardTopUpQuote,
  type CardTransaction,
} from '@meridian/contracts/cards';
import { ASSET_PRECISION } from '@meridian/contracts/money';
import { formatMoney } from '@meridian/contracts/money-format';
import Decimal from 'decimal.js';
import { and, eq, isNull } from 'drizzle-orm';
import { type SettleAnswer } from '../../platform/db/idempotency.ts';
import { DomainError, FieldError } from '../../platform/http/errors.ts';
import { accountBalance, postEntry } from '../ledger/ledger.service.ts';
import { platformAccount, userAccount } from '../ledger/ledger.types.ts';
import {
  availableAccount,
  type CardsDeps,
  DEFAULT_FX_RATES,
  type FactorCheck,
  money,
  NO_FACTORS,
  ownCard,
  readSettings,
  toTransaction,
} from './cards.internal.ts';
import { cardToppedUpMessage } from './cards.messages.ts';
import { cardTopUpQuotes, cardTransactions } from './cards.tables.ts';

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

/** Top-ups: a quote at a locked rate, then its execution exactly once. */
export function createCardTopUps(deps: CardsDeps) {
  const { db } = deps;

  return {
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
  };
}
