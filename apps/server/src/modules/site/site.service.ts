import { SOCIAL_LINK_IDS, type SiteInfo } from '@meridian/contracts/site';
import { and, eq, gte, max, or } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Db } from '../../platform/db/client.ts';
import type { Clock } from '../../platform/prices/types.ts';
import { hongKongDay } from '../funds/funds.internal.ts';
import { fundProducts, fundRateTiers } from '../funds/funds.tables.ts';

/** How long the home page's live figures are reused before the database is asked again. */
export const SITE_STATS_TTL_MS = 60_000;

/**
 * The public site information (`GET /api/site`, docs/marketing.md): the operator's details and
 * links from the configuration (`SITE_*`) and the live figures of the home page's statistic tiles,
 * read from the fund products and cached for {@link SITE_STATS_TTL_MS}.
 */
export class SiteService {
  private cached: { stats: SiteInfo['stats']; atMs: number } | null = null;

  constructor(private readonly deps: { db: Db; clock: Clock; site: Config['site'] }) {}

  /** The site information; the figures are at most {@link SITE_STATS_TTL_MS} old. */
  async info(): Promise<SiteInfo> {
    const { site } = this.deps;
    return {
      legalEntity: site.legalEntity ?? null,
      registeredAddress: site.registeredAddress ?? null,
      licences: site.licences,
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
    const today = hongKongDay(this.deps.clock.now());
    // The same products the fund list offers for subscription: active, and for fixed funds still raising.
    const [row] = await this.deps.db
      .select({ topBps: max(fundRateTiers.annualRateBps) })
      .from(fundRateTiers)
      .innerJoin(fundProducts, eq(fundProducts.id, fundRateTiers.productId))
      .where(
        and(
          eq(fundProducts.isActive, true),
          or(eq(fundProducts.type, 'CURRENT'), gte(fundProducts.raiseEndDate, today)),
        ),
      );
    const stats = { topAnnualRateBps: row?.topBps ?? null };
    this.cached = { stats, atMs: nowMs };
    return stats;
  }
}
