import type { LoanAdjustCalcQuery, LoanCalcQuery, LoanCoin, LoanRepayCalcQuery } from '@meridian/contracts/loans';
import type { PriceHistoryRange } from '@meridian/contracts/market';
import { useQueryClient } from '@tanstack/react-query';
import { walletBalanceKey } from '../../../lib/get-wallet-balance.ts';

/** The kinds of loan history (routes `/my/order/loan/*`): orders, repayments, adjustments, liquidations. */
export type LoanRecordKind = 'order' | 'repay' | 'adjust' | 'liquidation';

/** Filters every loan history shares (`loan/*\/record`, `loan/order/list`), without the page. */
export interface LoanHistoryFilters {
  loanCoin?: LoanCoin;
  /** [from, to] ISO instants. */
  createTime?: [string, string];
  /** Rows per page (10). */
  pageSize: number;
}

/** The history's filters with the page asked for (1-based). */
export interface LoanPageFilters extends LoanHistoryFilters {
  pageID: number;
}

/** The TanStack Query keys of the loan calls. */
export const loanKeys = {
  all: ['loans'] as const,
  coins: ['loans', 'coins'] as const,
  config: ['loans', 'config'] as const,
  asset: ['loans', 'asset'] as const,
  current: ['loans', 'current'] as const,
  calc: (query: LoanCalcQuery) => ['loans', 'calc', query] as const,
  repayCalc: (query: LoanRepayCalcQuery) => ['loans', 'repay-calc', query] as const,
  adjustCalc: (query: LoanAdjustCalcQuery) => ['loans', 'adjust-calc', query] as const,
  protection: (orderId: string) => ['loans', 'protection', orderId] as const,
  records: (kind: LoanRecordKind, filters: LoanPageFilters) => ['loans', 'records', kind, filters] as const,
  recordPages: (kind: LoanRecordKind, filters: LoanHistoryFilters) =>
    ['loans', 'records', kind, 'pages', filters] as const,
  priceHistory: (range: PriceHistoryRange) => ['market', 'prices', 'history', 'BTC', range] as const,
};

/** Refetch what a borrow, repayment or adjustment changed: every loan view and the wallet balances. */
export function useInvalidateLoans() {
  const client = useQueryClient();
  return () => {
    void client.invalidateQueries({ queryKey: loanKeys.all });
    void client.invalidateQueries({ queryKey: walletBalanceKey });
  };
}
