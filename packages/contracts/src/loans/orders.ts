import { z } from 'zod';
import { INSTANT_LENGTH_MAX, boundedList, instantText } from '../limits.ts';
import { decimalAmountSchema } from '../money.ts';
import { pageQuerySchema, pageSchema } from '../pagination.ts';
import { sensitiveFactorsSchema } from '../security.ts';
import {
  loanStatusSchema,
  loanCollateralCoinSchema,
  amountTextSchema,
  loanCoinSchema,
  pctTextSchema,
  isoSchema,
  dateTextSchema,
  loanTermDaysSchema,
  readOptionalAmount,
} from './base.ts';

// ---------------------------------------------------------------- orders

/** A loan order (loan labels; `/my/order/loan/history`). */
export const loanOrderSchema = z.object({
  orderId: z.string(),
  status: loanStatusSchema,
  collateralCoin: loanCollateralCoinSchema,
  /** BTC held as collateral now. */
  collateralAmount: amountTextSchema,
  loanCoin: loanCoinSchema,
  /** Principal amount borrowed. */
  principal: amountTextSchema,
  /** Principal still owed. */
  outstandingPrincipal: amountTextSchema,
  termDays: z.number().int(),
  annualRatePct: pctTextSchema,
  dailyRatePct: pctTextSchema,
  /** Interest for the whole term (principal × daily rate × term days, rounded up). */
  interest: amountTextSchema,
  /** Overdue interest accrued so far (3 × daily rate per overdue day). */
  overdueInterest: amountTextSchema,
  /** Early-repayment and liquidation charges paid. */
  feesPaid: amountTextSchema,
  repaidPrincipal: amountTextSchema,
  repaidInterest: amountTextSchema,
  /** Outstanding principal + unpaid interest (+ unpaid overdue interest). */
  debt: amountTextSchema,
  /** Current LTV in percent (2 decimals); null when the price is unavailable or the loan is closed. */
  ltvPct: pctTextSchema.nullable(),
  marginCallLtvPct: pctTextSchema,
  liquidationLtvPct: pctTextSchema,
  /** debt ÷ (collateral × liquidation LTV); null once closed. */
  liquidationPrice: z.string().nullable(),
  marginCallPrice: z.string().nullable(),
  /** Date borrowed (instant) and repayment date (Hong Kong date: the term's last natural day, due by 23:59 HKT). */
  borrowTime: isoSchema,
  repaymentDate: dateTextSchema,
  /** When it was closed (repaid or liquidated); null while current. */
  closeTime: isoSchema.nullable(),
  /** Whether a protection rule is switched on for it. */
  hasProtection: z.boolean(),
  /**
   * While a margin call is open: the end of its cure window (instant). Until then the loan is
   * liquidated only if its LTV reaches the hard level (docs/decisions/0005-margin-call-before-liquidation.md);
   * null without a margin call or once closed.
   */
  marginCallDeadline: isoSchema.nullable(),
});
export type LoanOrder = z.infer<typeof loanOrderSchema>;

/** Query parameter that may be repeated (arrays repeated). */
function repeated<T extends z.ZodType>(item: T) {
  return z
    .union([item, boundedList(item)])
    .transform((value) => (Array.isArray(value) ? value : [value]) as z.output<T>[]);
}

/** Two ISO instants [from, to], the history filter `createTime`. */
const createTimeSchema = z
  .union([instantText(), boundedList(instantText(), 2)])
  .transform((value) => (Array.isArray(value) ? value : [value]))
  .pipe(
    z.tuple([
      z.iso.datetime({ offset: true }).max(INSTANT_LENGTH_MAX),
      z.iso.datetime({ offset: true }).max(INSTANT_LENGTH_MAX),
    ]),
  );

/** Filters every loan history shares: coin, createTime [from, to], one order. */
export const loanHistoryQuerySchema = pageQuerySchema.extend({
  loanCoin: loanCoinSchema.optional(),
  createTime: createTimeSchema.optional(),
  orderId: z
    .string()
    .max(18, { abort: true })
    .regex(/^\d{1,18}$/)
    .optional(),
});

/**
 * `GET loan/order/list`: the caller's loans, newest first. `status` may be repeated; `isCurrent=true`
 * keeps the current ones (0, 2, 3, 4).
 */
export const loanOrderQuerySchema = loanHistoryQuerySchema.extend({
  status: repeated(z.coerce.number().pipe(loanStatusSchema)).optional(),
  isCurrent: z
    .enum(['true', 'false'])
    .transform((value) => value === 'true')
    .optional(),
});
export type LoanOrderQuery = z.input<typeof loanOrderQuerySchema>;
export type ParsedLoanOrderQuery = z.output<typeof loanOrderQuerySchema>;
export const loanOrderPageSchema = pageSchema(loanOrderSchema);

/** `GET loan/asset`: totals of the caller's current loans (for the loan page and the account overview). */
export const loanAssetSchema = z.object({
  /** BTC pledged in current loans, and its USD value at the current price (null without a price). */
  collateralAmount: amountTextSchema,
  collateralUsd: amountTextSchema.nullable(),
  /** Total debt of current loans in USD (stablecoins at 1), and its parts. */
  debtUsd: amountTextSchema,
  outstandingPrincipalUsd: amountTextSchema,
  /** Per loan coin: outstanding principal and debt. */
  debts: z.array(
    z.object({ loanCoin: loanCoinSchema, outstandingPrincipal: amountTextSchema, debt: amountTextSchema }),
  ),
  currentCount: z.number().int(),
  /** debtUsd ÷ collateralUsd, percent; null without loans or price. */
  ltvPct: pctTextSchema.nullable(),
  /** What the caller may still borrow under the per-user maximum, USD. */
  remainingLimitUsd: amountTextSchema,
  price: z.string().nullable(),
});
export type LoanAsset = z.infer<typeof loanAssetSchema>;

// ---------------------------------------------------------------- borrow

const borrowFieldsSchema = sensitiveFactorsSchema.extend({
  loanCoin: loanCoinSchema,
  termDays: loanTermDaysSchema,
  /** BTC pledged. */
  collateralAmount: decimalAmountSchema,
  /** Principal borrowed, in the loan coin. */
  principal: decimalAmountSchema,
});

/**
 * `POST loan/borrow` body (security check LOAN_BORROW, `Idempotency-Key`). Parsed: `collateralMinor`
 * (satoshi) and `principalMinor` (loan coin minor units).
 */
export const loanBorrowBodySchema = borrowFieldsSchema.transform((body, context) => {
  const collateralMinor = readOptionalAmount(body.collateralAmount, 'BTC', 'collateralAmount', context);
  const principalMinor = readOptionalAmount(body.principal, body.loanCoin, 'principal', context);
  if (collateralMinor === undefined || principalMinor === undefined) return z.NEVER;
  const { collateralAmount: _c, principal: _p, ...rest } = body;
  return { ...rest, collateralMinor, principalMinor };
});
export type LoanBorrowBody = z.input<typeof loanBorrowBodySchema>;
export type ParsedLoanBorrowBody = z.output<typeof loanBorrowBodySchema>;
