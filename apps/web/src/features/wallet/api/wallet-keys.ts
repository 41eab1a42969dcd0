import type { AssetCode } from '@meridian/contracts/money';
import { useQueryClient } from '@tanstack/react-query';
import { walletBalanceKey } from '../../../lib/get-wallet-balance.ts';

/** Filters of the history pages, without the page. */
export interface RecordHistoryFilters {
  action: 'deposit' | 'withdraw';
  coin?: AssetCode;
  /** [from, to] ISO instants. */
  createTime?: [string, string];
  status?: number;
  type?: 'INTERNAL' | 'OUTER';
  /** Rows per page (10). */
  pageSize: number;
}

/** The history's filters with the page asked for (1-based), as `GET wallet/record` takes them. */
export interface RecordFilters extends RecordHistoryFilters {
  pageID: number;
}

/** The TanStack Query keys of the wallet calls (the balance and coin list, shared with the exchange feature, are in `lib/`). */
export const walletKeys = {
  address: (coin: string, network: string) => ['wallet', 'address', coin, network] as const,
  records: (filters: RecordFilters) => ['wallet', 'records', filters] as const,
  recordPages: (filters: RecordHistoryFilters) => ['wallet', 'records', 'pages', filters] as const,
  recordsAll: ['wallet', 'records'] as const,
  addressBook: ['wallet', 'addressbook'] as const,
  withdrawLimits: ['wallet', 'withdraw-limits'] as const,
  withdrawalChain: (id: string) => ['wallet', 'withdrawal-chain', id] as const,
};

/** Refetch what a money movement changed: balances, histories and what is left of the withdrawal limits. */
export function useInvalidateWallet() {
  const client = useQueryClient();
  return () => {
    void client.invalidateQueries({ queryKey: walletBalanceKey });
    void client.invalidateQueries({ queryKey: walletKeys.recordsAll });
    void client.invalidateQueries({ queryKey: walletKeys.withdrawLimits });
  };
}
