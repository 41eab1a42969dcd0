import { z } from 'zod';
import { bannerListContentSchema } from './banner.ts';
import { MARKET_COIN_CODES } from './coins.ts';
import { defineEndpoint } from './endpoint.ts';

export { MARKET_COIN_CODES, type MarketCoinCode } from './coins.ts';
export const marketCoinCodeSchema = z.enum(MARKET_COIN_CODES);

/**
 * One row of the market table (spec §3): `currentPrice` is USD per coin as a plain decimal string
 * with at least 2 decimals, or the price's own when it has more (spec §9); `changePercent` is the
 * change over 24 hours in percent with 2 decimals ("-3.45"); `lineCode` is the last 24 hours of
 * prices for the trend line, oldest first, one point per 15 minutes and the current price last
 * (numbers: drawing only, never arithmetic). `observedAt` says how fresh `currentPrice` is.
 */
export const marketCoinRowSchema = z.object({
  coinCode: marketCoinCodeSchema,
  currentPrice: z.string().regex(/^\d+\.\d{2,}$/),
  changePercent: z.string().regex(/^-?\d+\.\d{2}$/),
  lineCode: z.array(z.number()),
  observedAt: z.iso.datetime(),
});
export type MarketCoinRow = z.infer<typeof marketCoinRowSchema>;

/** `GET /api/market/price` content: the rows in `MARKET_COIN_CODES` order; a coin without any price is left out. */
export const marketPriceListSchema = z.array(marketCoinRowSchema);
export type MarketPriceList = z.infer<typeof marketPriceListSchema>;

/** Every market call (spec §7 `market/*`): the descriptors the server registers its routes from (see `endpoint.ts`). */
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
    params: z.object({ id: z.uuid({ error: 'validation.required' }) }),
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
};
