import { backOfficeBannerEndpoints } from '@meridian/contracts/back-office';
import type { FastifyInstance } from 'fastify';
import { noteAudit } from '../../platform/http/audit.ts';
import { registerEndpoints } from '../../platform/http/endpoint.ts';
import { DomainError } from '../../platform/http/errors.ts';
import type { MarketService } from '../market/market.service.ts';

/**
 * Home-page banners in the back office (issue 16 "Content: banners"), registered from
 * `backOfficeBannerEndpoints` (`/api/admin/banners`): listed by support, compliance and admin;
 * created, edited and reordered by compliance and admin (roles checked from the descriptors). The
 * market module owns the table (`MarketService`); every write is audited by the platform's hook
 * with the banner (or `banners` for an order) as its target and the rows before and after.
 */
export function backOfficeBannerRoutes(market: MarketService) {
  return async function register(app: FastifyInstance): Promise<void> {
    registerEndpoints(app, backOfficeBannerEndpoints, {
      listBanners: async () => market.listAllBanners(),
      createBanner: async (request) => {
        const banner = await market.createBanner(request.body);
        noteAudit(request, { targetType: 'banner', targetId: banner.id, before: null, after: banner });
        return banner;
      },
      updateBanner: async (request) => {
        const before = await market.findBanner(request.params.id);
        if (!before) throw new DomainError('NOT_FOUND');
        const banner = await market.updateBanner(request.params.id, request.body);
        noteAudit(request, { targetType: 'banner', targetId: banner.id, before, after: banner });
        return banner;
      },
      reorderBanners: async (request) => {
        const before = (await market.listAllBanners()).map((banner) => banner.id);
        const after = await market.reorderBanners(request.body.ids);
        noteAudit(request, {
          targetType: 'banners',
          targetId: 'order',
          before: { ids: before },
          after: { ids: after.map((banner) => banner.id) },
        });
        return after;
      },
    });
  };
}
