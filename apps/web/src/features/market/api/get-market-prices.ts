import { MARKET_COIN_CODES, type MarketCoinCode } from '@meridian/contracts/coins';
import { endpointPath } from '@meridian/contracts/endpoint';
import type { MarketCoinRow, marketEndpoints, MarketPriceList } from '@meridian/contracts/market';
import { useQuery } from '@tanstack/react-query';
import { request, unwrap } from '../../../lib/api-client.ts';

/**
 * The route of `marketEndpoints.prices`, checked against the descriptor at compile time. The market
 * table is on the home page's first load, and importing the descriptor itself would bring full zod
 * with it (the home route stays under 150 KB); `readMarketPriceList` checks the answer.
 */
const PRICES_ROUTE = { method: 'GET', path: '/market/price' } as const satisfies Pick<
  typeof marketEndpoints.prices,
  'method' | 'path'
>;

/**
 * `GET market/price` (descriptor `marketEndpoints.prices`): the home market table's rows. Refetched every 15 s while the tab is
 * visible, so prices move without a page reload; a failed refresh keeps the rows shown (the
 * market ignores a non-200 and keeps its state).
 */
export const MARKET_PRICES_QUERY_KEY = ['market', 'prices'] as const;
/** How often the table refreshes. The server samples each minute and quotes live in between. */
export const MARKET_REFRESH_MS = 15_000;
/** Points of a trend line read at most (the server sends about 98). */
const LINE_POINTS_MAX = 200;

type FieldCheck = (value: unknown) => boolean;
const isCoinCode: FieldCheck = (value) =>
  typeof value === 'string' && (MARKET_COIN_CODES as readonly string[]).includes(value);
const isDecimalText =
  (pattern: RegExp): FieldCheck =>
  (value) =>
    typeof value === 'string' && pattern.test(value);
const isNumberList: FieldCheck = (value) =>
  Array.isArray(value) && value.every((point) => typeof point === 'number' && Number.isFinite(point));
const isString: FieldCheck = (value) => typeof value === 'string';

/**
 * One check per field of the contract's row; `satisfies` makes a contract change a compile error
 * here (the zod schema itself would put zod on the home page's first load).
 */
const ROW_FIELD_CHECKS = {
  coinCode: isCoinCode,
  currentPrice: isDecimalText(/^\d+\.\d{2,}$/),
  changePercent: isDecimalText(/^-?\d+\.\d{2}$/),
  lineCode: isNumberList,
  observedAt: isString,
} satisfies Record<keyof MarketCoinRow, FieldCheck>;

export function isMarketCoinRow(value: unknown): value is MarketCoinRow {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return Object.entries(ROW_FIELD_CHECKS).every(([field, check]) => check(record[field]));
}

/** The rows of a `market/price` content that match the contract, one per coin, trend lines bounded; null when it is no list. */
export function readMarketPriceList(content: unknown): MarketPriceList | null {
  if (!Array.isArray(content)) return null;
  const seen = new Set<MarketCoinCode>();
  return content.filter(isMarketCoinRow).flatMap((row) => {
    if (seen.has(row.coinCode)) return [];
    seen.add(row.coinCode);
    return [{ ...row, lineCode: row.lineCode.slice(-LINE_POINTS_MAX) }];
  });
}

export async function getMarketPrices(): Promise<MarketPriceList> {
  const rows = readMarketPriceList(
    unwrap(await request<MarketPriceList>(PRICES_ROUTE.method, endpointPath(PRICES_ROUTE))),
  );
  if (!rows) throw new Error('The market price list does not match its contract');
  return rows;
}

export function useMarketPrices() {
  return useQuery({
    queryKey: MARKET_PRICES_QUERY_KEY,
    queryFn: getMarketPrices,
    refetchInterval: MARKET_REFRESH_MS,
    staleTime: MARKET_REFRESH_MS,
    retry: 1,
  });
}
