import { z } from 'zod';
import { decimalAmountSchema } from '../money.ts';
import { pageSchema } from '../pagination.ts';
import { sensitiveFactorsSchema } from '../security.ts';
import {
  readOptionalAmount,
  loanCoinSchema,
  amountTextSchema,
  loanStatusSchema,
  pctTextSchema,
  isoSchema,
  loanCollateralCoinSchema,
} from './base.ts';
import { loanHistoryQuerySchema } from './orders.ts';

// ---------------------------------------------------------------- repay

/**
 * How a repayment is paid: WALLET (the loan coin from the wallet) or COLLATERAL (the loan's BTC
 * sold at the current price; the BTC needed is shown by `loan/repay/calc` first).
 */
export const LOAN_REPAY_TYPES = ['WALLET', 'COLLATERAL'] as const;
export const loanRepayTypeSchema = z.enum(LOAN_REPAY_TYPES);
export type LoanRepayType = z.infer<typeof loanRepayTypeSchema>;

/** Who made a repayment or an adjustment: the user, a protection rule, or the liquidation engine. */
export const LOAN_ORIGINS = ['USER', 'PROTECTION', 'LIQUIDATION'] as const;
export type LoanOrigin = (typeof LOAN_ORIGINS)[number];

export const orderIdSchema = z
  .string()
  .max(18, { abort: true })
  .regex(/^\d{1,18}$/, { error: 'validation.required' });

const repayFieldsSchema = z.object({
  orderId: orderIdSchema,
  repayType: loanRepayTypeSchema.default('WALLET'),
  /** Amount of the loan coin to repay; absent = the whole debt (closes the loan). */
  amount: decimalAmountSchema.optional(),
});

/** Reads the repay fields; `amountMinor` undefined = repay everything. */
function parseRepay<T extends z.output<typeof repayFieldsSchema>>(body: T, context: z.core.$RefinementCtx) {
  // The loan coin is not known before the order is read: amounts are read at 6 decimals (every loan coin's precision).
  const amountMinor = readOptionalAmount(body.amount, 'USDT', 'amount', context);
  if (body.amount !== undefined && amountMinor === undefined) return z.NEVER;
  const { amount: _a, ...rest } = body;
  return { ...rest, amountMinor };
}

/** `GET loan/repay/calc` query. */
export const loanRepayCalcQuerySchema = repayFieldsSchema.transform(parseRepay);
export type LoanRepayCalcQuery = z.input<typeof loanRepayCalcQuerySchema>;
export type ParsedLoanRepayCalcQuery = z.output<typeof loanRepayCalcQuerySchema>;

/** `POST loan/repay` body (security check LOAN_REPAY, `Idempotency-Key`). */
export const loanRepayBodySchema = sensitiveFactorsSchema.extend(repayFieldsSchema.shape).transform(parseRepay);
export type LoanRepayBody = z.input<typeof loanRepayBodySchema>;
export type ParsedLoanRepayBody = z.output<typeof loanRepayBodySchema>;

/**
 * `GET loan/repay/calc` content: the exact split of a repayment made now. Order: unpaid interest
 * (term interest, then overdue interest), then principal; principal repaid before the repayment
 * date carries the early-repayment charge.
 */
export const loanRepayCalcSchema = z.object({
  orderId: z.string(),
  loanCoin: loanCoinSchema,
  repayType: loanRepayTypeSchema,
  /** Total paid in the loan coin (= interest + overdueInterest + principal + fee). */
  amount: amountTextSchema,
  interest: amountTextSchema,
  overdueInterest: amountTextSchema,
  principal: amountTextSchema,
  /** Early-repayment charge (2 % of the principal repaid early, rounded up). */
  fee: amountTextSchema,
  /** Whether this closes the loan, and the status it would get (6, 7 or 8). */
  isFull: z.boolean(),
  statusAfter: loanStatusSchema,
  /** COLLATERAL: BTC sold (rounded up) at `price`; WALLET: "0". */
  collateralSold: amountTextSchema,
  /** BTC returned to the wallet (all the rest when the loan closes). */
  collateralReleased: amountTextSchema,
  /** Debt left after it, and the LTV and liquidation price after it (null when closed). */
  debtAfter: amountTextSchema,
  ltvAfterPct: pctTextSchema.nullable(),
  liquidationPriceAfter: z.string().nullable(),
  price: z.string().nullable(),
});
export type LoanRepayCalc = z.infer<typeof loanRepayCalcSchema>;

/** A repayment record (`/my/order/loan/repay`, LoanRepayRecord). */
export const loanRepayRecordSchema = z.object({
  id: z.string(),
  orderId: z.string(),
  loanCoin: loanCoinSchema,
  repayType: loanRepayTypeSchema,
  origin: z.enum(LOAN_ORIGINS),
  amount: amountTextSchema,
  interest: amountTextSchema,
  overdueInterest: amountTextSchema,
  principal: amountTextSchema,
  fee: amountTextSchema,
  collateralSold: amountTextSchema,
  collateralReleased: amountTextSchema,
  price: z.string().nullable(),
  statusAfter: loanStatusSchema,
  createTime: isoSchema,
});
export type LoanRepayRecord = z.infer<typeof loanRepayRecordSchema>;
export const loanRepayRecordQuerySchema = loanHistoryQuerySchema;
export const loanRepayRecordPageSchema = pageSchema(loanRepayRecordSchema);

// ---------------------------------------------------------------- adjust

/** ADD: collateral from the wallet to the loan (any time, also in a margin call); REMOVE: back to the wallet. */
export const LOAN_ADJUST_DIRECTIONS = ['ADD', 'REMOVE'] as const;
export const loanAdjustDirectionSchema = z.enum(LOAN_ADJUST_DIRECTIONS);
export type LoanAdjustDirection = z.infer<typeof loanAdjustDirectionSchema>;

const adjustFieldsSchema = z.object({
  orderId: orderIdSchema,
  direction: loanAdjustDirectionSchema,
  /** BTC added or removed. */
  amount: decimalAmountSchema,
});
function parseAdjust<T extends z.output<typeof adjustFieldsSchema>>(body: T, context: z.core.$RefinementCtx) {
  const amountMinor = readOptionalAmount(body.amount, 'BTC', 'amount', context);
  if (amountMinor === undefined) return z.NEVER;
  const { amount: _a, ...rest } = body;
  return { ...rest, amountMinor };
}

/** `GET loan/adjust/calc` query. */
export const loanAdjustCalcQuerySchema = adjustFieldsSchema.transform(parseAdjust);
export type LoanAdjustCalcQuery = z.input<typeof loanAdjustCalcQuerySchema>;
export type ParsedLoanAdjustCalcQuery = z.output<typeof loanAdjustCalcQuerySchema>;

/** `POST loan/adjust` body (security check LOAN_ADJUST, `Idempotency-Key`). */
export const loanAdjustBodySchema = sensitiveFactorsSchema.extend(adjustFieldsSchema.shape).transform(parseAdjust);
export type LoanAdjustBody = z.input<typeof loanAdjustBodySchema>;
export type ParsedLoanAdjustBody = z.output<typeof loanAdjustBodySchema>;

/** `GET loan/adjust/calc` content: the loan after the change, at the current price. */
export const loanAdjustCalcSchema = z.object({
  orderId: z.string(),
  direction: loanAdjustDirectionSchema,
  amount: amountTextSchema,
  collateralBefore: amountTextSchema,
  collateralAfter: amountTextSchema,
  ltvBeforePct: pctTextSchema,
  ltvAfterPct: pctTextSchema,
  liquidationPriceAfter: z.string(),
  /** Most BTC that can be removed now while LTV stays ≤ the initial LTV. */
  maxRemovable: amountTextSchema,
  price: z.string(),
});
export type LoanAdjustCalc = z.infer<typeof loanAdjustCalcSchema>;

/** A collateral adjustment record (`/my/order/loan/adjust`, LoanAdjustRecord). */
export const loanAdjustRecordSchema = z.object({
  id: z.string(),
  orderId: z.string(),
  direction: loanAdjustDirectionSchema,
  origin: z.enum(LOAN_ORIGINS),
  collateralCoin: loanCollateralCoinSchema,
  amount: amountTextSchema,
  collateralAfter: amountTextSchema,
  ltvBeforePct: pctTextSchema.nullable(),
  ltvAfterPct: pctTextSchema.nullable(),
  price: z.string().nullable(),
  createTime: isoSchema,
});
export type LoanAdjustRecord = z.infer<typeof loanAdjustRecordSchema>;
export const loanAdjustRecordQuerySchema = loanHistoryQuerySchema.extend({
  direction: loanAdjustDirectionSchema.optional(),
});
export const loanAdjustRecordPageSchema = pageSchema(loanAdjustRecordSchema);
