import type { FundOrderAction, FundStablecoin, FundType } from '@meridian/contracts/funds';
import { useQueryClient } from '@tanstack/react-query';
import { walletBalanceKey } from '../../../lib/get-wallet-balance.ts';

/** Filters of the fund history (`GET fund/v2/order`), without the page. */
export interface FundHistoryFilters {
  type?: FundType;
  action?: FundOrderAction;
  coin?: FundStablecoin;
  /** [from, to] ISO instants. */
  createTime?: [string, string];
  /** Rows per page (10). */
  pageSize: number;
}

/** The history's filters with the page asked for (1-based). */
export interface FundOrderFilters extends FundHistoryFilters {
  pageID: number;
}

/** The TanStack Query keys of the fund calls. */
export const fundKeys = {
  all: ['funds'] as const,
  products: ['funds', 'products'] as const,
  config: ['funds', 'config'] as const,
  asset: ['funds', 'asset'] as const,
  earnings: (days: number) => ['funds', 'earnings', days] as const,
  orders: (filters: FundOrderFilters) => ['funds', 'orders', filters] as const,
  orderPages: (filters: FundHistoryFilters) => ['funds', 'orders', 'pages', filters] as const,
};

/** Refetch what a subscription or redemption changed: every fund view and the wallet balances. */
export function useInvalidateFunds() {
  const client = useQueryClient();
  return () => {
    void client.invalidateQueries({ queryKey: fundKeys.all });
    void client.invalidateQueries({ queryKey: walletBalanceKey });
  };
}
