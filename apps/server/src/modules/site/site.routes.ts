import { siteEndpoints } from '@meridian/contracts/site';
import type { FastifyInstance } from 'fastify';
import { registerEndpoints } from '../../platform/http/endpoint.ts';
import type { SiteService } from './site.service.ts';

/** The public site route under /api: `GET site`. */
export function siteRoutes(options: { site: SiteService }) {
  const { site } = options;
  return async function register(app: FastifyInstance): Promise<void> {
    registerEndpoints(app, siteEndpoints, {
      getSite: async () => site.info(),
    });
  };
}
