import type { ExchangeQuote, ExchangeRateQuery, FlashExchangeRequest, SwapRecord } from '@meridian/contracts/exchange';
import type { MarketCoinCode } from '@meridian/contracts/market';
import type { Page } from '@meridian/contracts/pagination';
import type { BalanceContent, WalletCoin } from '@meridian/contracts/wallet';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient, unwrap } from '../../../lib/api-client.ts';
import { useUserId } from '../../../lib/session.ts';

/**
 * The exchange calls (spec §7 `exchange/rate`, `exchange/swap`; issue 5 flash exchange and swap
 * history) and their TanStack Query hooks. Shapes are the contracts of `@meridian/contracts/exchange`.
 */

/** Filters of the swap history (spec §2 history pages: coin and date). */
export interface SwapFilters {
  coin?: MarketCoinCode;
  /** [from, to] ISO instants. */
  createTime?: [string, string];
  pageID: number;
  pageSize: number;
}

export const exchangeKeys = {
  history: (filters: SwapFilters) => ['exchange', 'history', filters] as const,
  historyAll: ['exchange', 'history'] as const,
  // The wallet's balance and coin list, shared with the wallet pages' cache under the same keys, so a
  // swap refreshes the balance they show too.
  balance: ['wallet', 'balance'] as const,
  coins: ['wallet', 'coins'] as const,
};

export const exchangeApi = {
  /** A firm quote (10 s). GET: the client shows no message; the page shows refusals inline. */
  rate: (query: ExchangeRateQuery, signal?: AbortSignal) => apiClient.get<ExchangeQuote>('exchange/rate', { params: { ...query }, signal }),
  // The page shows its own result card (and the message centre a toast): no generic success toast.
  swap: (quoteId: string) => apiClient.post<SwapRecord>('exchange/swap', { quoteId }, { quietSuccess: true }),
  flash: (request: FlashExchangeRequest) => apiClient.post<SwapRecord>('exchange/flash', request, { quietSuccess: true }),
  history: (filters: SwapFilters) => apiClient.get<Page<SwapRecord>>('exchange/swap/list', { params: { ...filters } }),
  balance: () => apiClient.get<BalanceContent>('wallet/balance'),
  coins: () => apiClient.get<WalletCoin[]>('coinlist'),
};

/** The signed-in user's balances (the from-coin's available amount). */
export function useExchangeBalance() {
  const userId = useUserId();
  return useQuery({ queryKey: exchangeKeys.balance, enabled: userId !== null, queryFn: async () => unwrap(await exchangeApi.balance()) });
}

/** The wallet's coins (the history's coin filter: all plus each wallet coin). */
export function useWalletCoins() {
  return useQuery({ queryKey: exchangeKeys.coins, queryFn: async () => unwrap(await exchangeApi.coins()), staleTime: 60_000 });
}

/** One page of the swap history. */
export function useSwapHistory(filters: SwapFilters) {
  const userId = useUserId();
  return useQuery({
    queryKey: exchangeKeys.history(filters),
    enabled: userId !== null,
    queryFn: async () => unwrap(await exchangeApi.history(filters)),
    placeholderData: keepPreviousData,
  });
}

/** Refetch what a swap changed: balances (and the wallet's pages) and the swap history. */
export function useInvalidateAfterSwap() {
  const client = useQueryClient();
  return () => {
    void client.invalidateQueries({ queryKey: exchangeKeys.balance });
    void client.invalidateQueries({ queryKey: exchangeKeys.historyAll });
    void client.invalidateQueries({ queryKey: ['wallet', 'records'] });
  };
}
