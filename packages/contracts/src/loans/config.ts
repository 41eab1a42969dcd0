import { z } from 'zod';
import { decimalAmountSchema } from '../money.ts';
import {
  loanCoinSchema,
  amountTextSchema,
  loanCollateralCoinSchema,
  pctTextSchema,
  loanTermDaysQuerySchema,
  readOptionalAmount,
  isoSchema,
  dateTextSchema,
} from './base.ts';

// ---------------------------------------------------------------- coins and config

/** One borrowable coin as `loan/coins` lists it. */
export const loanCoinConfigSchema = z.object({
  coin: loanCoinSchema,
  /** False: it cannot be borrowed now (open loans in it go on). */
  isEnabled: z.boolean(),
  /** Smallest principal of one loan, in the coin. */
  minPrincipal: amountTextSchema,
  /** What the lending pool can still lend in the coin (capacity − outstanding principal). */
  available: amountTextSchema,
});
export type LoanCoinConfig = z.infer<typeof loanCoinConfigSchema>;

/** `GET loan/coins`: client state collateralCoins and loanCoins. */
export const loanCoinsSchema = z.object({
  collateralCoins: z.array(z.object({ coin: loanCollateralCoinSchema, isEnabled: z.boolean() })),
  loanCoins: z.array(loanCoinConfigSchema),
});
export type LoanCoins = z.infer<typeof loanCoinsSchema>;

/** One loan term with its rate: daily rate = APR ÷ 365 exactly (shown with 10 decimals). */
export const loanTermSchema = z.object({
  termDays: z.number().int(),
  annualRatePct: pctTextSchema,
  dailyRatePct: pctTextSchema,
});
export type LoanTerm = z.infer<typeof loanTermSchema>;

/** `GET loan/config`: every rule's number, from the database. */
export const loanConfigSchema = z.object({
  terms: z.array(loanTermSchema),
  /** At borrow, and after removing collateral, LTV must be at most this (70). */
  initialLtvPct: pctTextSchema,
  /** Margin call level (80). */
  marginCallLtvPct: pctTextSchema,
  /** Liquidation level (90): liquidation price = debt ÷ (collateral × 90 %). */
  liquidationLtvPct: pctTextSchema,
  /** Levels whose crossing sends an alert (75, 80, 85); re-armed `alertRearmPct` points below. */
  alertLtvPcts: z.array(pctTextSchema),
  alertRearmPct: pctTextSchema,
  /**
   * Cure window after a margin call, minutes (60), and the LTV that liquidates at once whatever the
   * window (95): docs/decisions/0005-margin-call-before-liquidation.md.
   */
  cureWindowMinutes: z.number().int(),
  hardLiquidationLtvPct: pctTextSchema,
  /** Maximum outstanding principal per user, USD (1,000,000). */
  maxOutstandingUsd: amountTextSchema,
  /** Liquidation fee, percent of the value of the collateral sold (2). */
  liquidationFeePct: pctTextSchema,
  /** Early repayment charge, percent of the principal repaid before the repayment date (2). */
  earlyRepayFeePct: pctTextSchema,
  /** Overdue grace in natural days (3), at `overdueRateMultiplier` × the daily rate (3). */
  overdueGraceDays: z.number().int(),
  overdueRateMultiplier: z.number().int(),
});
export type LoanConfig = z.infer<typeof loanConfigSchema>;

// ---------------------------------------------------------------- calc

/**
 * `GET loan/calc` query: the calculator, collateral ↔ amount. Give `collateralAmount` (BTC) to get
 * the largest principal at the initial LTV, or `principal` to get the collateral it needs; with
 * both, the LTV of that pair.
 */
export const loanCalcQuerySchema = z
  .object({
    loanCoin: loanCoinSchema,
    termDays: loanTermDaysQuerySchema,
    collateralAmount: decimalAmountSchema.optional(),
    principal: decimalAmountSchema.optional(),
  })
  .transform((query, context) => {
    if (query.collateralAmount === undefined && query.principal === undefined) {
      context.issues.push({ code: 'custom', message: 'validation.required', input: undefined, path: ['principal'] });
      return z.NEVER;
    }
    const collateralMinor = readOptionalAmount(query.collateralAmount, 'BTC', 'collateralAmount', context);
    const principalMinor = readOptionalAmount(query.principal, query.loanCoin, 'principal', context);
    return { loanCoin: query.loanCoin, termDays: query.termDays, collateralMinor, principalMinor };
  });
export type LoanCalcQuery = z.input<typeof loanCalcQuerySchema>;
export type ParsedLoanCalcQuery = z.output<typeof loanCalcQuerySchema>;

/** `GET loan/calc` content: the loan that would be made now, at the current BTC price. */
export const loanCalcSchema = z.object({
  loanCoin: loanCoinSchema,
  collateralCoin: loanCollateralCoinSchema,
  termDays: z.number().int(),
  collateralAmount: amountTextSchema,
  principal: amountTextSchema,
  annualRatePct: pctTextSchema,
  dailyRatePct: pctTextSchema,
  /** principal × daily rate × term days, rounded up (owed in full whatever the repayment date). */
  interest: amountTextSchema,
  /** principal + interest. */
  totalRepay: amountTextSchema,
  /** (principal + interest) ÷ (collateral × price), percent with 2 decimals. */
  ltvPct: pctTextSchema,
  /** The largest principal this collateral allows at the initial LTV (when collateral was given). */
  maxPrincipal: amountTextSchema.nullable(),
  /** BTC price used (USD) and when it was observed. */
  price: z.string(),
  priceAt: isoSchema,
  /** BTC price at which LTV reaches the margin-call level; and the liquidation level. */
  marginCallPrice: z.string(),
  liquidationPrice: z.string(),
  /**
   * The term's last Hong Kong natural day (today is day 1: today + term days − 1); due by 23:59 HKT
   * that day (docs/decisions/0007-loan-dates.md).
   */
  repaymentDate: dateTextSchema,
});
export type LoanCalc = z.infer<typeof loanCalcSchema>;
