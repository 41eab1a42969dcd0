import type { ParamsOf } from '@meridian/contracts/endpoint';
import { marketEndpoints } from '@meridian/contracts/market';
import type { FastifyInstance } from 'fastify';
import { registerEndpoints } from '../../platform/http/endpoint.ts';
import { requestLocale } from '../../platform/http/locale.ts';
import type { MarketService } from './market.service.ts';

/**
 * HTTP routes of the market module (market/*), mounted under /api, registered from
 * `marketEndpoints`; the uploaded banner images are answered as their bytes.
 */
export function marketRoutes(market: MarketService) {
  return async function register(app: FastifyInstance): Promise<void> {
    const { bannerImage, ...jsonEndpoints } = marketEndpoints;
    // An uploaded banner image is the answer itself (not an envelope), public like the banners: its
    // own type, never sniffed, cached for a year (an image row never changes; a new one has a new id).
    app.route<{ Params: ParamsOf<typeof bannerImage> }>({
      method: bannerImage.method,
      url: bannerImage.path,
      config: { auth: bannerImage.auth },
      schema: {
        tags: [bannerImage.tag],
        summary: bannerImage.summary,
        description: 'Business codes: 104 NOT_FOUND.',
        params: bannerImage.params,
      },
      handler: async (request, reply) => {
        const image = await market.readBannerImage(request.params.id);
        return reply
          .header('content-type', image.mimeType)
          .header('cache-control', 'public, max-age=31536000, immutable')
          .header('x-content-type-options', 'nosniff')
          .header('content-security-policy', "default-src 'none'")
          .send(image.bytes);
      },
    });
    registerEndpoints(app, jsonEndpoints, {
      listBanners: async (request) => ({ content: await market.listBanners(requestLocale(request)) }),
      prices: async () => market.prices.marketTable(),
      priceHistory: async (request) => market.prices.history(request.query.coinCode, request.query.range),
    });
  };
}
