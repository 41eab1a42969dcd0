import type { ExchangeRateQuery } from '@meridian/contracts/exchange';
import type { MarketCoinCode } from '@meridian/contracts/market';
import { useQueryClient } from '@tanstack/react-query';
import { walletBalanceKey } from '../../../lib/get-wallet-balance.ts';

/** Filters of the swap history (coin and date, as on every history page), without the page. */
export interface SwapHistoryFilters {
  coin?: MarketCoinCode;
  /** [from, to] ISO instants. */
  createTime?: [string, string];
  /** Rows per page (10). */
  pageSize: number;
}

/** The history's filters with the page asked for (1-based), as `GET exchange/swap/list` takes them. */
export interface SwapFilters extends SwapHistoryFilters {
  pageID: number;
}

/**
 * The TanStack Query keys of the exchange calls. The wallet's balance and coin list live in `lib/`
 * (`walletBalanceKey`, `walletCoinsKey`), shared with the wallet pages, so a swap refreshes the
 * balance they show too.
 */
export const exchangeKeys = {
  quote: (query: ExchangeRateQuery) => ['exchange', 'quote', query] as const,
  quoteAll: ['exchange', 'quote'] as const,
  history: (filters: SwapFilters) => ['exchange', 'history', filters] as const,
  historyPages: (filters: SwapHistoryFilters) => ['exchange', 'history', 'pages', filters] as const,
  historyAll: ['exchange', 'history'] as const,
};

/** Refetch what a swap changed: balances (and the wallet's pages) and the swap history. */
export function useInvalidateAfterSwap() {
  const client = useQueryClient();
  return () => {
    void client.invalidateQueries({ queryKey: walletBalanceKey });
    void client.invalidateQueries({ queryKey: exchangeKeys.historyAll });
    void client.invalidateQueries({ queryKey: ['wallet', 'records'] });
  };
}
