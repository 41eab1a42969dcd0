import { z } from 'zod';
import { type AmountMinor, type AssetCode, readAmountMinor } from '../money.ts';

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

/** Wire texts of the loans' answers: a percent, an amount (decimal strings), an ISO instant, a `YYYY-MM-DD` date. */
export const pctTextSchema = z.string();
export const amountTextSchema = z.string();
export const isoSchema = z.string();
export const dateTextSchema = z.string();

/**
 * A wire amount read as `AmountMinor` of the coin another field names (like `withAmountMinor`),
 * for an OPTIONAL amount field: absent stays `undefined`.
 */
export function readOptionalAmount(
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
