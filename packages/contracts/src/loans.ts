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
export {
  LOAN_COLLATERAL_COINS,
  loanCollateralCoinSchema,
  type LoanCollateralCoin,
  LOAN_COINS,
  loanCoinSchema,
  type LoanCoin,
  LOAN_TERM_DAYS,
  type LoanTermDays,
  loanTermDaysSchema,
  loanTermDaysQuerySchema,
  LOAN_STATUS,
  type LoanStatus,
  LOAN_STATUSES,
  LOAN_CURRENT_STATUSES,
  loanStatusSchema,
  LOAN_STATUS_LABELS,
  LOAN_PROTECTION_TRIGGER_PCT_MIN,
  LOAN_PROTECTION_TRIGGER_PCT_MAX,
} from './loans/base.ts';
export * from './loans/config.ts';
export {
  loanOrderSchema,
  type LoanOrder,
  loanOrderQuerySchema,
  type LoanOrderQuery,
  type ParsedLoanOrderQuery,
  loanOrderPageSchema,
  loanAssetSchema,
  type LoanAsset,
  loanBorrowBodySchema,
  type LoanBorrowBody,
  type ParsedLoanBorrowBody,
} from './loans/orders.ts';
export {
  LOAN_REPAY_TYPES,
  loanRepayTypeSchema,
  type LoanRepayType,
  LOAN_ORIGINS,
  type LoanOrigin,
  loanRepayCalcQuerySchema,
  type LoanRepayCalcQuery,
  type ParsedLoanRepayCalcQuery,
  loanRepayBodySchema,
  type LoanRepayBody,
  type ParsedLoanRepayBody,
  loanRepayCalcSchema,
  type LoanRepayCalc,
  loanRepayRecordSchema,
  type LoanRepayRecord,
  loanRepayRecordQuerySchema,
  loanRepayRecordPageSchema,
  LOAN_ADJUST_DIRECTIONS,
  loanAdjustDirectionSchema,
  type LoanAdjustDirection,
  loanAdjustCalcQuerySchema,
  type LoanAdjustCalcQuery,
  type ParsedLoanAdjustCalcQuery,
  loanAdjustBodySchema,
  type LoanAdjustBody,
  type ParsedLoanAdjustBody,
  loanAdjustCalcSchema,
  type LoanAdjustCalc,
  loanAdjustRecordSchema,
  type LoanAdjustRecord,
  loanAdjustRecordQuerySchema,
  loanAdjustRecordPageSchema,
} from './loans/repay.ts';
export * from './loans/protection.ts';
export * from './loans/endpoints.ts';
