import {
  type ExchangeQuote,
  type ExchangeRateQuery,
  exchangeEndpoints,
  QUOTE_TTL_MS,
} from '@meridian/contracts/exchange';
import { useQuery } from '@tanstack/react-query';
import { callEndpoint, unwrap } from '../../../lib/api-client.ts';
import { exchangeKeys } from './exchange-keys.ts';

/** A quote with the browser-clock moment it stops being usable (see `secondsLeft`). */
export interface HeldQuote {
  quote: ExchangeQuote;
  /** When the request was sent plus the quote's 10 s life (`QUOTE_TTL_MS`), in the browser's ms. */
  deadlineMs: number;
}

/**
 * `GET exchange/rate` (descriptor `exchangeEndpoints.quote`): a firm quote for 10 s. A GET: the client shows no
 * message, the page shows a refusal (below the minimum, no price …) inline from the thrown
 * `ApiError`'s message. The deadline is counted from the moment the request left, so the
 * countdown never outlives the server's quote.
 */
export async function getExchangeQuote(query: ExchangeRateQuery, signal?: AbortSignal): Promise<HeldQuote> {
  const askedAtMs = Date.now();
  const quote: ExchangeQuote = unwrap(await callEndpoint(exchangeEndpoints.quote, { query: { ...query } }, { signal }));
  return { quote, deadlineMs: askedAtMs + QUOTE_TTL_MS };
}

/**
 * The quote for `query`, asked only when the user asks (`query` null: none). Never refetched on its
 * own: a new quote comes from `refetch` (refresh, flash renewal) or a new query; a refusal is not
 * retried (the server's answer stands). A quote is not reused once nobody shows it (`gcTime` 0).
 */
export function useExchangeQuote(query: ExchangeRateQuery | null) {
  return useQuery({
    queryKey: query ? exchangeKeys.quote(query) : exchangeKeys.quoteAll,
    queryFn: ({ signal }) => getExchangeQuote(query as ExchangeRateQuery, signal),
    enabled: query !== null,
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
}
