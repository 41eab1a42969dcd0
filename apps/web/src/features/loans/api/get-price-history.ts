import { marketEndpoints, type PriceHistoryRange } from '@meridian/contracts/market';
import { useQuery } from '@tanstack/react-query';
import { callEndpoint, unwrap } from '../../../lib/api-client.ts';
import { loanKeys } from './loan-keys.ts';

/** How often the loan page refreshes the shown price history (the market table's pace). */
const HISTORY_REFRESH_MS = 15_000;

/**
 * `GET market/price/history?range&coinCode=BTC` (`marketEndpoints.priceHistory`): BTC's stored USD
 * prices over `range` (24h: 15-minute points; 7d: hourly; 30d: 4-hourly; 1y: daily), oldest first,
 * for the loan page's chart. Empty points when the market has no history for that range yet.
 */
export async function getPriceHistory(range: PriceHistoryRange, signal?: AbortSignal) {
  return unwrap(await callEndpoint(marketEndpoints.priceHistory, { query: { range, coinCode: 'BTC' } }, { signal }));
}

/** BTC's price history over `range`, refreshed every 15 s (each range cached apart). */
export function usePriceHistory(range: PriceHistoryRange) {
  return useQuery({
    queryKey: loanKeys.priceHistory(range),
    queryFn: ({ signal }) => getPriceHistory(range, signal),
    refetchInterval: HISTORY_REFRESH_MS,
    staleTime: HISTORY_REFRESH_MS,
    retry: 1,
  });
}
