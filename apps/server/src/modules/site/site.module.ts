import type { Config } from '../../config.ts';
import type { AppModule } from '../../platform/app-module.ts';
import type { Clock } from '../../platform/clock/clock.ts';
import { siteRoutes } from './site.routes.ts';
import { type SiteFundsReader, SiteService } from './site.service.ts';

/** What `buildApp` hands the site module. */
export interface SiteModuleDeps {
  /** The funds service (the top open rate). */
  funds: SiteFundsReader;
  clock: Clock;
  /** The operator's site settings (`config.site`, SITE_* variables). */
  site: Config['site'];
}

/**
 * Wire the public site information (docs/marketing.md): `GET /api/site` for the
 * marketing pages (About's legal details, footer social links, other business lines, home figures).
 */
export function createSiteModule(deps: SiteModuleDeps): AppModule<SiteService> {
  const service = new SiteService({ funds: deps.funds, clock: deps.clock, site: deps.site });
  return { service, routes: siteRoutes({ site: service }), jobs: [] };
}
