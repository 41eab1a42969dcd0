import { marketEndpoints } from '@meridian/contracts/market';
import { useQuery } from '@tanstack/react-query';
import { callEndpoint, unwrap } from '../../../lib/api-client.ts';
import { loanKeys } from './loan-keys.ts';

/** How often the loan page refreshes the BTC price (the market table's pace). */
const PRICE_REFRESH_MS = 15_000;

/**
 * `GET market/price` (spec §7, `marketEndpoints.prices`), read for BTC only: its current USD price and
 * the last 24 hours of prices (one per 15 minutes) for the loan page's chart. Null when the market
 * has no BTC price.
 */
export async function getBtcPriceLine(signal?: AbortSignal) {
  const rows = unwrap(await callEndpoint(marketEndpoints.prices, {}, { signal }));
  return rows.find((row) => row.coinCode === 'BTC') ?? null;
}

/** The BTC row of the market, refreshed every 15 s. */
export function useBtcPriceLine() {
  return useQuery({
    queryKey: loanKeys.btcPrice,
    queryFn: ({ signal }) => getBtcPriceLine(signal),
    refetchInterval: PRICE_REFRESH_MS,
    staleTime: PRICE_REFRESH_MS,
    retry: 1,
  });
}
