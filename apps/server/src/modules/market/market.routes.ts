import { marketEndpoints } from '@meridian/contracts/market';
import type { FastifyInstance } from 'fastify';
import { registerEndpoints } from '../../platform/http/endpoint.ts';
import { requestLocale } from '../../platform/http/locale.ts';
import type { MarketService } from './market.service.ts';

/** HTTP routes of the market module (spec §7 market/*), mounted under /api, registered from `marketEndpoints`. */
export function marketRoutes(market: MarketService) {
  return async function register(app: FastifyInstance): Promise<void> {
    registerEndpoints(app, marketEndpoints, {
      listBanners: async (request) => ({ content: await market.listBanners(requestLocale(request)) }),
      prices: async () => market.prices.marketTable(),
      priceHistory: async (request) => market.prices.history(request.query.coinCode, request.query.range),
    });
  };
}
