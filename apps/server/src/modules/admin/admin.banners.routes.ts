import fastifyMultipart from '@fastify/multipart';
import { BANNER_IMAGE_FIELD, backOfficeBannerEndpoints } from '@meridian/contracts/back-office';
import type { FastifyInstance } from 'fastify';
import { noteAudit } from '../../platform/http/audit.ts';
import { currentOperator } from '../../platform/http/auth.ts';
import { registerEndpoints } from '../../platform/http/endpoint.ts';
import { DomainError, FieldError } from '../../platform/http/errors.ts';
import { readMultipartUploads } from '../../platform/uploads/multipart-reader.ts';
import { BANNER_IMAGE_UPLOAD_PROFILE } from '../../platform/uploads/upload-rules.ts';
import type { MarketService } from '../market/market.service.ts';

/**
 * Home-page banners in the back office, registered from
 * `backOfficeBannerEndpoints` (`/api/admin/banners`): listed by support, compliance and admin;
 * created, edited and reordered by compliance and admin (roles checked from the descriptors), who
 * also upload the banner images (multipart, the platform's upload rules). The
 * market module owns the table (`MarketService`); every write is audited by the platform's hook
 * with the banner (or `banners` for an order) as its target and the rows before and after.
 */
export function backOfficeBannerRoutes(market: MarketService) {
  return async function register(app: FastifyInstance): Promise<void> {
    // Multipart is parsed only in this context (the image upload); limits are set per request by the reader.
    await app.register(fastifyMultipart);
    registerEndpoints(app, backOfficeBannerEndpoints, {
      listBanners: async () => market.listAllBanners(),
      uploadBannerImage: [
        async (request) => {
          // One image per call, through the platform's upload rules (PNG/JPEG/WebP by magic bytes, 2 MB).
          const submission = await readMultipartUploads(request, {
            profile: BANNER_IMAGE_UPLOAD_PROFILE,
            filesMax: 1,
            field: BANNER_IMAGE_FIELD,
          });
          const [file] = submission.files;
          if (!file || file.fieldName !== BANNER_IMAGE_FIELD)
            throw new FieldError(BANNER_IMAGE_FIELD, 'validation.fileRequired');
          const image = await market.saveBannerImage(file, currentOperator(request).email);
          noteAudit(request, { targetType: 'banner-image', targetId: image.id, before: null, after: image });
          return image;
        },
        { csrf: 'multipart' },
      ],
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
