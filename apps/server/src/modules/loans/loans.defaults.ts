import { LOAN_COINS, type LoanCoin } from '@meridian/contracts/loans';
import { eq } from 'drizzle-orm';
import { loanCoins, loanSettings, loanTerms } from './loans.tables.ts';
import type { LoansContext } from './loans.context.ts';

/** Default rules, seeded once. Editable afterwards with `updateSettings`. */
export const LOAN_DEFAULTS = {
  terms: [
    { termDays: 30, annualRateBps: 1200 },
    { termDays: 90, annualRateBps: 1000 },
    { termDays: 180, annualRateBps: 900 },
    { termDays: 360, annualRateBps: 800 },
  ],
  /** 100 of the coin minimum; pool capacity 50,000,000 of each coin. */
  coins: LOAN_COINS.map((coin, index) => ({
    coin,
    minPrincipalMinor: 100_000_000n,
    poolCapacityMinor: 50_000_000_000_000n,
    sortOrder: index,
  })),
  settings: {
    id: 1,
    initialLtvBps: 7000,
    marginCallLtvBps: 8000,
    liquidationLtvBps: 9000,
    alertLevelsBps: [7500, 8000, 8500],
    alertRearmBps: 200,
    maxOutstandingUsdMinor: 100_000_000n,
    liquidationFeeBps: 200,
    earlyRepayFeeBps: 200,
    overdueGraceDays: 3,
    overdueRateMultiplier: 3,
    /** docs/decisions/0005-margin-call-before-liquidation.md: 60 minutes to cure, 95 % liquidates at once. */
    cureWindowMinutes: 60,
    hardLiquidationLtvBps: 9500,
  },
};

/** The rules' rows: seeding the defaults once and the direct edits operators and tests make. */
export function createDefaultsService(deps: LoansContext) {
  const { db } = deps;

  return {
    /** Seed the default coins, terms and settings (once; existing rows are kept as edited). */
    async seed(): Promise<void> {
      await db.insert(loanSettings).values(LOAN_DEFAULTS.settings).onConflictDoNothing();
      await db.insert(loanTerms).values(LOAN_DEFAULTS.terms).onConflictDoNothing();
      await db.insert(loanCoins).values(LOAN_DEFAULTS.coins).onConflictDoNothing();
    },

    /** Edit the rules' numbers (operators, tests). The database checks keep the LTV levels ordered. */
    async updateSettings(change: Partial<Omit<typeof loanSettings.$inferInsert, 'id'>>): Promise<void> {
      await db
        .update(loanSettings)
        .set({ ...change, updatedAt: deps.now() })
        .where(eq(loanSettings.id, 1));
    },

    /** Edit a borrowable coin (switch off, minimum principal, pool capacity). */
    async updateCoin(coin: LoanCoin, change: Partial<Omit<typeof loanCoins.$inferInsert, 'coin'>>): Promise<void> {
      await db
        .update(loanCoins)
        .set({ ...change, updatedAt: deps.now() })
        .where(eq(loanCoins.coin, coin));
    },

    /** Edit a term's APR (basis points) or switch it off. */
    async updateTerm(termDays: number, change: { annualRateBps?: number; isEnabled?: boolean }): Promise<void> {
      await db
        .update(loanTerms)
        .set({ ...change, updatedAt: deps.now() })
        .where(eq(loanTerms.termDays, termDays));
    },
  };
}
