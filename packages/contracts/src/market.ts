import { z } from 'zod';
import { INSTANT_LENGTH_MAX, uuidString } from './limits.ts';
import { bannerListContentSchema } from './banner.ts';
import { MARKET_COIN_CODES } from './coins.ts';
import { defineEndpoint } from './endpoint.ts';

export { MARKET_COIN_CODES, type MarketCoinCode } from './coins.ts';
export const marketCoinCodeSchema = z.enum(MARKET_COIN_CODES);

/**
 * One row of the market table: `currentPrice` is USD per coin as a plain decimal string
 * with at least 2 decimals, or the price's own when it has more; `changePercent` is the
 * change over 24 hours in percent with 2 decimals ("-3.45"); `lineCode` is the last 24 hours of
 * prices for the trend line, oldest first, one point per 15 minutes and the current price last
 * (numbers: drawing only, never arithmetic). `observedAt` says how fresh `currentPrice` is.
 */
export const marketCoinRowSchema = z.object({
  coinCode: marketCoinCodeSchema,
  currentPrice: z.string().regex(/^\d+\.\d{2,}$/),
  changePercent: z.string().regex(/^-?\d+\.\d{2}$/),
  lineCode: z.array(z.number()),
  observedAt: z.iso.datetime().max(INSTANT_LENGTH_MAX),
});
export type MarketCoinRow = z.infer<typeof marketCoinRowSchema>;

/** `GET /api/market/price` content: the rows in `MARKET_COIN_CODES` order; a coin without any price is left out. */
export const marketPriceListSchema = z.array(marketCoinRowSchema);
export type MarketPriceList = z.infer<typeof marketPriceListSchema>;

/** The ranges of `GET market/price/history` (the loan page's chart buttons). */
export const PRICE_HISTORY_RANGES = ['24h', '7d', '30d', '1y'] as const;
export type PriceHistoryRange = (typeof PRICE_HISTORY_RANGES)[number];

/**
 * `GET market/price/history?range=24h|7d|30d|1y[&coinCode=BTC]`: `range` is required (a missing or
 * unknown one is 120 naming `range`, `validation.priceRange`); `coinCode` defaults to BTC.
 */
export const priceHistoryQuerySchema = z.object({
  range: z.enum(PRICE_HISTORY_RANGES, { error: 'validation.priceRange' }),
  coinCode: marketCoinCodeSchema.default('BTC'),
});
export type PriceHistoryQuery = z.infer<typeof priceHistoryQuerySchema>;

/** One point of a price history: the slot's start (UTC) and the last price in it, USD per coin (decimal string). */
export const priceHistoryPointSchema = z.object({
  time: z.iso.datetime().max(INSTANT_LENGTH_MAX),
  priceUsd: z.string().regex(/^\d+(\.\d+)?$/),
});
export type PriceHistoryPoint = z.infer<typeof priceHistoryPointSchema>;

/**
 * `GET market/price/history` content: the stored prices of `range`, oldest first, one point per
 * `stepMinutes` slot that has a sample (24h: 15 minutes from the minute samples; 7d: 1 hour and
 * 30d: 4 hours from the hourly bars; 1y: 1 day from the daily bars). Empty without history.
 */
export const priceHistoryContentSchema = z.object({
  coinCode: marketCoinCodeSchema,
  range: z.enum(PRICE_HISTORY_RANGES),
  stepMinutes: z.number().int().positive(),
  points: z.array(priceHistoryPointSchema),
});
export type PriceHistoryContent = z.infer<typeof priceHistoryContentSchema>;

/** Every market call (`market/*`): the descriptors the server registers its routes from (see `endpoint.ts`). */
export const marketEndpoints = {
  listBanners: defineEndpoint({
    method: 'GET',
    path: '/market/banner/getList',
    tag: 'market',
    summary: 'Home-page banners, titled in the caller language',
    auth: 'none',
    content: bannerListContentSchema,
  }),
  bannerImage: defineEndpoint({
    method: 'GET',
    path: '/market/banner/image/:id',
    tag: 'market',
    summary:
      'An uploaded banner image: the bytes themselves (image/png, image/jpeg or image/webp), cached publicly for a year (an image is never changed; a new one gets a new id)',
    auth: 'none',
    params: z.object({ id: uuidString({ error: 'validation.required' }) }),
    content: z.unknown(),
    codes: ['NOT_FOUND'],
  }),
  prices: defineEndpoint({
    method: 'GET',
    path: '/market/price',
    tag: 'market',
    summary: 'The home market table: current USD price, 24-hour change and trend line per coin',
    auth: 'none',
    content: marketPriceListSchema,
  }),
  priceHistory: defineEndpoint({
    method: 'GET',
    path: '/market/price/history',
    tag: 'market',
    summary: 'A coin’s stored USD prices over 24 hours, 7 days, 30 days or 1 year (the loan page’s chart)',
    auth: 'none',
    query: priceHistoryQuerySchema,
    content: priceHistoryContentSchema,
  }),
};
