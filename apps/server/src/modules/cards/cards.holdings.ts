import { type CardCurrency } from '@meridian/contracts/cards';
import type { Locale } from '@meridian/contracts/locale';
import { type AssetCode } from '@meridian/contracts/money';
import { formatMoney } from '@meridian/contracts/money-format';
import Decimal from 'decimal.js';
import { and, eq, inArray } from 'drizzle-orm';
import type { HoldingsChecker } from '../../platform/app-module.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { accountBalance } from '../ledger/ledger.service.ts';
import { availableAccount, type CardsDeps, heldAccount, readSettings } from './cards.internal.ts';
import { cardRateHistory } from './cards.settings.ts';
import { cards } from './cards.tables.ts';

/** What other modules, CLIs and the back office read of cards: holders, balances, rates, statuses, closure. */
export function createCardHoldings(deps: CardsDeps) {
  const { db } = deps;

  return {
    /** Every card's holder: card id (as the ledger's owner id) → user id (proof of liabilities). */
    async holdersByCardId(dbOrTx: DbOrTx = db): Promise<Map<string, string>> {
      const rows = await dbOrTx.select({ id: cards.id, userId: cards.userId }).from(cards);
      return new Map(rows.map((row) => [String(row.id), row.userId]));
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
}
