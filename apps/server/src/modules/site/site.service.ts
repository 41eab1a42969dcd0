import { SOCIAL_LINK_IDS, type SiteInfo } from '@meridian/contracts/site';
import type { Config } from '../../config.ts';
import type { Clock } from '../../platform/clock/clock.ts';

/** How long the home page's live figures are reused before the funds are asked again. */
export const SITE_STATS_TTL_MS = 60_000;

/** What the site reads from the funds module (its service). */
export interface SiteFundsReader {
  topOpenAnnualRateBps(): Promise<number | null>;
}

/**
 * The public site information (`GET /api/site`, docs/marketing.md): the operator's details and
 * links from the configuration (`SITE_*`) and the live figures of the home page's statistic tiles,
 * read from the funds and cached for {@link SITE_STATS_TTL_MS}.
 */
export class SiteService {
  private cached: { stats: SiteInfo['stats']; atMs: number } | null = null;

  constructor(private readonly deps: { funds: SiteFundsReader; clock: Clock; site: Config['site'] }) {}

  /** The site information; the figures are at most {@link SITE_STATS_TTL_MS} old. */
  async info(): Promise<SiteInfo> {
    const { site } = this.deps;
    return {
      legalEntity: site.legalEntity ?? null,
      registeredAddress: site.registeredAddress ?? null,
      licences: site.licences,
      legalDetailsAreDemo: !site.legalEntity || !site.registeredAddress || site.licences.length === 0,
      exchangeUrl: site.exchangeUrl ?? null,
      miningUrl: site.miningUrl ?? null,
      social: SOCIAL_LINK_IDS.flatMap((id) => {
        const href = site.social[id];
        return href ? [{ id, href }] : [];
      }),
      stats: await this.stats(),
    };
  }

  private async stats(): Promise<SiteInfo['stats']> {
    const nowMs = this.deps.clock.now().getTime();
    if (this.cached && nowMs - this.cached.atMs < SITE_STATS_TTL_MS) return this.cached.stats;
    const stats = { topAnnualRateBps: await this.deps.funds.topOpenAnnualRateBps() };
    this.cached = { stats, atMs: nowMs };
    return stats;
  }
}
