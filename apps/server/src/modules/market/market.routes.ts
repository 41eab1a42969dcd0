import { bannerListContentSchema } from '@meridian/contracts/banner';
import { envelopeSchema } from '@meridian/contracts/envelope';
import { marketPriceListSchema } from '@meridian/contracts/market';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok } from '../../platform/http/envelope.ts';
import { requestLocale } from '../../platform/http/locale.ts';
import type { MarketService } from './market.service.ts';

/** HTTP routes of the market module (spec §7 market/*), mounted under /api. */
export function marketRoutes(market: MarketService) {
  return async function register(app: FastifyInstance): Promise<void> {
    const routes = app.withTypeProvider<ZodTypeProvider>();
    routes.get(
      '/market/banner/getList',
      {
        schema: {
          tags: ['market'],
          summary: 'Home-page banners, titled in the caller language',
          response: { 200: envelopeSchema(bannerListContentSchema) },
        },
      },
      async (request) => ok(request, { content: await market.listBanners(requestLocale(request)) }),
    );
    routes.get(
      '/market/price',
      {
        schema: {
          tags: ['market'],
          summary: 'The home market table: current USD price, 24-hour change and trend line per coin',
          response: { 200: envelopeSchema(marketPriceListSchema) },
        },
      },
      async (request) => ok(request, await market.prices.marketTable()),
    );
  };
}
