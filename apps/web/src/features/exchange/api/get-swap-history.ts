import { exchangeEndpoints, type SwapRecord } from '@meridian/contracts/exchange';
import type { Page } from '@meridian/contracts/pagination';
import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { callEndpoint, unwrap } from '../../../lib/api-client.ts';
import { pagedListOptions } from '../../../lib/paging.ts';
import { useUserId } from '../../../lib/session.ts';
import { exchangeKeys, type SwapFilters, type SwapHistoryFilters } from './exchange-keys.ts';

/** `GET exchange/swap/list` (descriptor `exchangeEndpoints.listSwaps`): one page of the user's swaps and flash exchanges, newest first. */
export async function getSwapHistory(filters: SwapFilters, signal?: AbortSignal): Promise<Page<SwapRecord>> {
  return unwrap(await callEndpoint(exchangeEndpoints.listSwaps, { query: { ...filters } }, { signal }));
}

/** One page of the history (the desktop table's pager); the last page stays shown while the next loads. */
export function useSwapHistory(filters: SwapFilters) {
  const userId = useUserId();
  return useQuery({
    queryKey: exchangeKeys.history(filters),
    enabled: userId !== null,
    queryFn: ({ signal }) => getSwapHistory(filters, signal),
    placeholderData: keepPreviousData,
  });
}

/** The history in list mode (mobile): page 1, then each further page appended on request until totalPage. */
export function useSwapHistoryPages(filters: SwapHistoryFilters) {
  const userId = useUserId();
  return useInfiniteQuery({
    ...pagedListOptions({
      queryKey: exchangeKeys.historyPages(filters),
      fetchPage: (pageID, signal) => getSwapHistory({ ...filters, pageID }, signal),
    }),
    enabled: userId !== null,
    // New filters keep the rows shown until their first page arrives.
    placeholderData: keepPreviousData,
  });
}
