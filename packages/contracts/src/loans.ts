import { z } from 'zod';
import { INSTANT_LENGTH_MAX, boundedList, instantText } from './limits.ts';
import { defineEndpoint } from './endpoint.ts';
import { type AmountMinor, type AssetCode, decimalAmountSchema, readAmountMinor } from './money.ts';
import { pageQuerySchema, pageSchema } from './pagination.ts';
import { sensitiveFactorsSchema } from './security.ts';

/**
 * Loan contracts (loans, `/loan` and `/my/order/loan/*`, loan labels, loan order
 * status codes, `loan/*`, loan constants). Borrow a stablecoin (USDT, USDC, USDE)
 * against BTC collateral.
 *
 * Wire conventions: amounts are decimal strings of their coin (BTC 8 decimals, stablecoins 6);
 * percentages are decimal strings ("70", "12.5", "0.0328767123"); prices are USD per BTC as
 * decimal strings; times are ISO instants; `repaymentDate` is a Hong Kong calendar date
 * (YYYY-MM-DD). Every stablecoin is valued at 1 USD for LTV and the per-user maximum.
 */

/** The collateral coin (collateral BTC). */
export const LOAN_COLLATERAL_COINS = ['BTC'] as const;
export const loanCollateralCoinSchema = z.enum(LOAN_COLLATERAL_COINS);
export type LoanCollateralCoin = z.infer<typeof loanCollateralCoinSchema>;

/** The coins that can be borrowed (USDT, USDC, USDE; each can be switched off in `loan/coins`). */
export const LOAN_COINS = ['USDT', 'USDC', 'USDE'] as const;
export const loanCoinSchema = z.enum(LOAN_COINS, { error: 'validation.loanCoin' });
export type LoanCoin = z.infer<typeof loanCoinSchema>;

/** Loan terms in days (30, 90, 180, 360). */
export const LOAN_TERM_DAYS = [30, 90, 180, 360] as const;
export type LoanTermDays = (typeof LOAN_TERM_DAYS)[number];
const isLoanTerm = (days: number) => (LOAN_TERM_DAYS as readonly number[]).includes(days);
/** A loan term in a JSON body: a JSON number (a string "30" is refused; docs/decisions/0010-input-rules.md). */
export const loanTermDaysSchema = z
  .number({ error: 'validation.loanTerm' })
  .int({ error: 'validation.loanTerm' })
  .refine(isLoanTerm, { error: 'validation.loanTerm' });
/** A loan term in a query string: text on the wire, so read as a number. */
export const loanTermDaysQuerySchema = z.coerce
  .number({ error: 'validation.loanTerm' })
  .int({ error: 'validation.loanTerm' })
  .refine(isLoanTerm, { error: 'validation.loanTerm' });

/**
 * Loan order status codes: 0 init, 1 fail, 2 processing, 3 repayable, 4 overdue,
 * 5 price liquidation, 6 early repaid, 7 repaid, 8 overdue repaid, 9 overdue liquidation.
 */
export const LOAN_STATUS = {
  INIT: 0,
  FAIL: 1,
  PROCESSING: 2,
  REPAYABLE: 3,
  OVERDUE: 4,
  PRICE_LIQUIDATION: 5,
  EARLY_REPAID: 6,
  REPAID: 7,
  OVERDUE_REPAID: 8,
  OVERDUE_LIQUIDATION: 9,
} as const;
export type LoanStatus = (typeof LOAN_STATUS)[keyof typeof LOAN_STATUS];
export const LOAN_STATUSES = Object.values(LOAN_STATUS) as LoanStatus[];
/** "Current orders: 0, 2, 3, 4". */
export const LOAN_CURRENT_STATUSES: readonly LoanStatus[] = [0, 2, 3, 4];
export const loanStatusSchema = z.union(
  LOAN_STATUSES.map((status) => z.literal(status)) as [z.ZodLiteral<LoanStatus>, ...z.ZodLiteral<LoanStatus>[]],
);

/**
 * Display label of each status (labels: REPAID, EARLY_REPAID, OVERDUE_REPAID, Overdue,
 * Forced Liquidation, Ongoing). Statuses 0 init, 1 fail and 2 processing get their own.
 */
export const LOAN_STATUS_LABELS: Record<LoanStatus, string> = {
  0: 'INIT',
  1: 'FAILED',
  2: 'PROCESSING',
  3: 'Ongoing',
  4: 'Overdue',
  5: 'Forced Liquidation',
  6: 'EARLY_REPAID',
  7: 'REPAID',
  8: 'OVERDUE_REPAID',
  9: 'Forced Liquidation',
};

/** Bounds of a protection rule's trigger LTV in percent (X 75–88). */
export const LOAN_PROTECTION_TRIGGER_PCT_MIN = 75;
export const LOAN_PROTECTION_TRIGGER_PCT_MAX = 88;

const pctTextSchema = z.string();
const amountTextSchema = z.string();
const isoSchema = z.string();
const dateTextSchema = z.string();

/**
 * A wire amount read as `AmountMinor` of the coin another field names (like `withAmountMinor`),
 * for an OPTIONAL amount field: absent stays `undefined`.
 */
function readOptionalAmount(
  text: string | undefined,
  asset: AssetCode,
  field: string,
  context: z.core.$RefinementCtx,
): AmountMinor | undefined {
  if (text === undefined) return undefined;
  const read = readAmountMinor(text, asset);
  if ('amountMinor' in read) return read.amountMinor;
  context.issues.push({
    code: 'custom',
    message: read.refusal.messageKey,
    params: read.refusal.params,
    input: text,
    path: [field],
  });
  return undefined;
}

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
const loanHistoryQuerySchema = pageQuerySchema.extend({
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

const orderIdSchema = z
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

// ---------------------------------------------------------------- liquidation

/** PARTIAL: back to the initial LTV, the loan stays 3; FULL: price liquidation (5); OVERDUE: overdue liquidation (9). */
export const LOAN_LIQUIDATION_KINDS = ['PARTIAL', 'FULL', 'OVERDUE'] as const;
export type LoanLiquidationKind = (typeof LOAN_LIQUIDATION_KINDS)[number];

/** A liquidation receipt (`/my/order/loan/liquidation`, LoanLiquidationRecord). */
export const loanLiquidationRecordSchema = z.object({
  id: z.string(),
  orderId: z.string(),
  kind: z.enum(LOAN_LIQUIDATION_KINDS),
  loanCoin: loanCoinSchema,
  /** The price used (USD per BTC) and the sources of its median. */
  price: z.string(),
  priceSources: z.array(z.string()),
  /** BTC sold (fee included in its value). */
  collateralSold: amountTextSchema,
  /** Liquidation fee in the loan coin. */
  fee: amountTextSchema,
  /** Debt repaid from the sale (loan coin). */
  debtRepaid: amountTextSchema,
  /** BTC returned to the wallet (full and overdue liquidations). */
  collateralReturned: amountTextSchema,
  /**
   * Debt the sale could not cover (never a negative user balance): its principal part is
   * `principalLoss`, the rest is interest written off (docs/decisions/0006-shortfall-income.md).
   */
  shortfall: amountTextSchema,
  /** How `debtRepaid` was applied: principal and interest (term + overdue). Null on older receipts. */
  principalRepaid: amountTextSchema.nullable(),
  interestRepaid: amountTextSchema.nullable(),
  /** Principal the platform's loss account paid back (a shortfall's principal part). Null on older receipts. */
  principalLoss: amountTextSchema.nullable(),
  ltvBeforePct: pctTextSchema,
  ltvAfterPct: pctTextSchema.nullable(),
  statusAfter: loanStatusSchema,
  createTime: isoSchema,
});
export type LoanLiquidationRecord = z.infer<typeof loanLiquidationRecordSchema>;
export const loanLiquidationRecordQuerySchema = loanHistoryQuerySchema;
export const loanLiquidationRecordPageSchema = pageSchema(loanLiquidationRecordSchema);

// ---------------------------------------------------------------- protection rules

/** ADD_COLLATERAL: BTC from the wallet into collateral; REPAY: the loan coin from the wallet repays debt. */
export const LOAN_PROTECTION_ACTIONS = ['ADD_COLLATERAL', 'REPAY'] as const;
export type LoanProtectionAction = (typeof LOAN_PROTECTION_ACTIONS)[number];
/**
 * Where a REPAY rule takes the loan coin from: the wallet's balance of the loan coin, or
 * the current fund (shares redeemed at 1:1 into the loan coin, whole cents rounded up, while the
 * coin is at par). ADD_COLLATERAL always takes BTC from the wallet.
 */
export const LOAN_PROTECTION_REPAY_SOURCES = ['WALLET', 'FUND'] as const;
export type LoanProtectionRepaySource = (typeof LOAN_PROTECTION_REPAY_SOURCES)[number];

/** A whole percent in a JSON body: a JSON number, never a string (docs/decisions/0010-input-rules.md). */
const pctInputSchema = (min: number, max: number) =>
  z
    .number({ error: 'validation.loanProtectionPct' })
    .int({ error: 'validation.loanProtectionPct' })
    .min(min, { error: 'validation.loanProtectionPct' })
    .max(max, { error: 'validation.loanProtectionPct' });

const protectionFieldsSchema = sensitiveFactorsSchema.extend({
  orderId: orderIdSchema,
  isEnabled: z.boolean(),
  action: z.enum(LOAN_PROTECTION_ACTIONS),
  /** When LTV reaches this percent (75–88) … */
  triggerLtvPct: pctInputSchema(LOAN_PROTECTION_TRIGGER_PCT_MIN, LOAN_PROTECTION_TRIGGER_PCT_MAX),
  /** … bring it back to this percent (10–70, below the trigger). */
  targetLtvPct: pctInputSchema(10, 70),
  /** ADD_COLLATERAL: at most this BTC per run; REPAY: at most this much of the loan coin per run. */
  maxAmount: decimalAmountSchema,
  /** REPAY only: the wallet (default) or the current fund; ignored for ADD_COLLATERAL. */
  repaySource: z.enum(LOAN_PROTECTION_REPAY_SOURCES).optional(),
});

/**
 * `POST loan/protection` body (security check LOAN_ADJUST): set (or switch off) the loan's
 * protection rule. Parsed: `maxAmountMinor` in BTC (ADD_COLLATERAL) or 6-decimal loan coin (REPAY).
 */
export const loanProtectionBodySchema = protectionFieldsSchema.transform((body, context) => {
  if (body.targetLtvPct >= body.triggerLtvPct) {
    context.issues.push({
      code: 'custom',
      message: 'validation.loanProtectionPct',
      input: body.targetLtvPct,
      path: ['targetLtvPct'],
    });
    return z.NEVER;
  }
  const maxAmountMinor = readOptionalAmount(
    body.maxAmount,
    body.action === 'ADD_COLLATERAL' ? 'BTC' : 'USDT',
    'maxAmount',
    context,
  );
  if (maxAmountMinor === undefined) return z.NEVER;
  const { maxAmount: _m, ...rest } = body;
  const repaySource: LoanProtectionRepaySource = body.action === 'REPAY' ? (body.repaySource ?? 'WALLET') : 'WALLET';
  return { ...rest, maxAmountMinor, repaySource };
});
export type LoanProtectionBody = z.input<typeof loanProtectionBodySchema>;
export type ParsedLoanProtectionBody = z.output<typeof loanProtectionBodySchema>;

/** A loan's protection rule; `lastRunTime` when it last acted. */
export const loanProtectionSchema = z.object({
  orderId: z.string(),
  isEnabled: z.boolean(),
  action: z.enum(LOAN_PROTECTION_ACTIONS),
  triggerLtvPct: z.number().int(),
  targetLtvPct: z.number().int(),
  /** BTC (ADD_COLLATERAL) or loan coin (REPAY). */
  maxAmount: amountTextSchema,
  /** Where REPAY takes the coin from (WALLET for ADD_COLLATERAL). */
  repaySource: z.enum(LOAN_PROTECTION_REPAY_SOURCES),
  lastRunTime: isoSchema.nullable(),
  updateTime: isoSchema,
});
export type LoanProtection = z.infer<typeof loanProtectionSchema>;
export const loanProtectionQuerySchema = z.object({ orderId: orderIdSchema });

// ---------------------------------------------------------------- descriptors

const MONEY_CODES = [
  'VERIFICATION_REQUIRED',
  'CAPTCHA_FAILED',
  'CONFLICT',
  'NOT_FOUND',
  'KYC_REQUIRED',
  'ACCOUNT_FROZEN',
  'INSUFFICIENT_BALANCE',
  'PRICE_UNAVAILABLE',
] as const;

/**
 * Every loan call (`loan/*`) plus the protection rules. Coins, config and the
 * calculator are public (guests see the calculator); the rest need a session and identity
 * verification level 2 (`kyc: 'investor'`). Borrow, repay, adjust and protection move money or
 * set what may move it: security check (LOAN_BORROW, LOAN_REPAY, LOAN_ADJUST) and `Idempotency-Key`.
 */
export const loanEndpoints = {
  coins: defineEndpoint({
    method: 'GET',
    path: '/loan/coins',
    tag: 'loans',
    summary: 'Collateral coins and borrowable coins (minimum principal, pool availability)',
    auth: 'none',
    content: loanCoinsSchema,
  }),
  config: defineEndpoint({
    method: 'GET',
    path: '/loan/config',
    tag: 'loans',
    summary: 'Terms and rates, LTV levels, alert levels, maximum, fees, overdue rules',
    auth: 'none',
    content: loanConfigSchema,
  }),
  calc: defineEndpoint({
    method: 'GET',
    path: '/loan/calc',
    tag: 'loans',
    summary: 'Calculator: collateral ↔ principal, interest, LTV, margin-call and liquidation prices',
    auth: 'optional',
    query: loanCalcQuerySchema,
    content: loanCalcSchema,
    codes: ['PRICE_UNAVAILABLE', 'LOAN_COIN_DISABLED'],
  }),
  orderList: defineEndpoint({
    method: 'GET',
    path: '/loan/order/list',
    tag: 'loans',
    summary: 'The caller’s loans (filter by status, current, coin, createTime), paged',
    auth: 'user',
    kyc: 'investor',
    query: loanOrderQuerySchema,
    content: loanOrderPageSchema,
    codes: ['KYC_REQUIRED'],
  }),
  asset: defineEndpoint({
    method: 'GET',
    path: '/loan/asset',
    tag: 'loans',
    summary: 'Totals of the caller’s current loans: collateral, debt, LTV, remaining limit',
    auth: 'user',
    kyc: 'investor',
    content: loanAssetSchema,
    codes: ['KYC_REQUIRED'],
  }),
  repayRecord: defineEndpoint({
    method: 'GET',
    path: '/loan/repay/record',
    tag: 'loans',
    summary: 'Repayment records, paged',
    auth: 'user',
    kyc: 'investor',
    query: loanRepayRecordQuerySchema,
    content: loanRepayRecordPageSchema,
    codes: ['KYC_REQUIRED'],
  }),
  repayCalc: defineEndpoint({
    method: 'GET',
    path: '/loan/repay/calc',
    tag: 'loans',
    summary: 'The exact split of a repayment made now (interest first, early charge, collateral sold)',
    auth: 'user',
    kyc: 'investor',
    query: loanRepayCalcQuerySchema,
    content: loanRepayCalcSchema,
    codes: ['KYC_REQUIRED', 'NOT_FOUND', 'PRICE_UNAVAILABLE', 'LOAN_NOT_REPAYABLE', 'LOAN_REPAY_TOO_MUCH'],
  }),
  adjustRecord: defineEndpoint({
    method: 'GET',
    path: '/loan/adjust/record',
    tag: 'loans',
    summary: 'Collateral adjustment records, paged',
    auth: 'user',
    kyc: 'investor',
    query: loanAdjustRecordQuerySchema,
    content: loanAdjustRecordPageSchema,
    codes: ['KYC_REQUIRED'],
  }),
  adjustCalc: defineEndpoint({
    method: 'GET',
    path: '/loan/adjust/calc',
    tag: 'loans',
    summary: 'LTV and liquidation price after adding or removing collateral; the most removable',
    auth: 'user',
    kyc: 'investor',
    query: loanAdjustCalcQuerySchema,
    content: loanAdjustCalcSchema,
    codes: ['KYC_REQUIRED', 'NOT_FOUND', 'PRICE_UNAVAILABLE', 'LOAN_NOT_REPAYABLE', 'LOAN_LTV_TOO_HIGH'],
  }),
  liquidationRecord: defineEndpoint({
    method: 'GET',
    path: '/loan/liquidation/record',
    tag: 'loans',
    summary: 'Liquidation receipts (partial, full, overdue), paged',
    auth: 'user',
    kyc: 'investor',
    query: loanLiquidationRecordQuerySchema,
    content: loanLiquidationRecordPageSchema,
    codes: ['KYC_REQUIRED'],
  }),
  borrow: defineEndpoint({
    method: 'POST',
    path: '/loan/borrow',
    tag: 'loans',
    summary: 'Borrow a stablecoin against BTC: collateral frozen and principal credited in one entry',
    auth: 'user',
    kyc: 'investor',
    sensitiveAction: 'LOAN_BORROW',
    isIdempotent: true,
    body: loanBorrowBodySchema,
    content: loanOrderSchema,
    codes: [
      ...MONEY_CODES,
      'LOAN_COIN_DISABLED',
      'LOAN_LTV_TOO_HIGH',
      'LOAN_ABOVE_MAX',
      'LOAN_BELOW_MIN',
      'LOAN_POOL_INSUFFICIENT',
    ],
  }),
  repay: defineEndpoint({
    method: 'POST',
    path: '/loan/repay',
    tag: 'loans',
    summary: 'Repay from the wallet’s loan coin or with collateral sold; interest first; full → 6, 7 or 8',
    auth: 'user',
    kyc: 'investor',
    sensitiveAction: 'LOAN_REPAY',
    isIdempotent: true,
    body: loanRepayBodySchema,
    content: loanRepayRecordSchema,
    codes: [...MONEY_CODES, 'LOAN_NOT_REPAYABLE', 'LOAN_REPAY_TOO_MUCH'],
  }),
  adjust: defineEndpoint({
    method: 'POST',
    path: '/loan/adjust',
    tag: 'loans',
    summary: 'Add collateral (any time, also in a margin call) or remove it while LTV stays ≤ 70 %',
    auth: 'user',
    kyc: 'investor',
    sensitiveAction: 'LOAN_ADJUST',
    isIdempotent: true,
    body: loanAdjustBodySchema,
    content: loanAdjustRecordSchema,
    codes: [...MONEY_CODES, 'LOAN_NOT_REPAYABLE', 'LOAN_LTV_TOO_HIGH'],
  }),
  protection: defineEndpoint({
    method: 'GET',
    path: '/loan/protection',
    tag: 'loans',
    summary: 'A loan’s protection rule (null when none was set)',
    auth: 'user',
    kyc: 'investor',
    query: loanProtectionQuerySchema,
    content: loanProtectionSchema.nullable(),
    codes: ['KYC_REQUIRED', 'NOT_FOUND'],
  }),
  setProtection: defineEndpoint({
    method: 'POST',
    path: '/loan/protection',
    tag: 'loans',
    summary: 'Set a loan’s protection rule: at X % LTV add collateral or repay, up to N, back to Y %',
    auth: 'user',
    kyc: 'investor',
    sensitiveAction: 'LOAN_ADJUST',
    body: loanProtectionBodySchema,
    content: loanProtectionSchema,
    codes: ['VERIFICATION_REQUIRED', 'CAPTCHA_FAILED', 'KYC_REQUIRED', 'NOT_FOUND', 'LOAN_NOT_REPAYABLE'],
  }),
};
