import { z } from 'zod';
import { decimalAmountSchema } from '../money.ts';
import { pageSchema } from '../pagination.ts';
import { sensitiveFactorsSchema } from '../security.ts';
import {
  loanCoinSchema,
  amountTextSchema,
  pctTextSchema,
  loanStatusSchema,
  isoSchema,
  LOAN_PROTECTION_TRIGGER_PCT_MIN,
  LOAN_PROTECTION_TRIGGER_PCT_MAX,
  readOptionalAmount,
} from './base.ts';
import { loanHistoryQuerySchema } from './orders.ts';
import { orderIdSchema } from './repay.ts';

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
