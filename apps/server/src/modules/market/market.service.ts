import type { Banner } from '@meridian/contracts/banner';
import type { Locale } from '@meridian/contracts/locale';
import { asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import type { MarketPrices } from './market.prices.ts';
import { banners } from './market.tables.ts';

/** The market's price service, as other modules see it (they import the market's service file only). */
export type { MarketPrices } from './market.prices.ts';

/** Banners shown at most, so one list call stays bounded. */
const BANNER_LIST_MAX = 20;

/**
 * Market content of the home page: banners, and through `prices` the coin prices, their history
 * and the market table. Other modules ask `prices.usdPrice(coin)` for a USD price.
 */
export class MarketService {
  constructor(
    private readonly db: DbOrTx,
    readonly prices: MarketPrices,
  ) {}

  /**
   * Active banners in display order, titled in `locale`, with the image of that language where the
   * banner has one (spec §3 Banner; §7 market/banner/getList).
   */
  async listBanners(locale: Locale): Promise<Banner[]> {
    const rows = await this.db
      .select()
      .from(banners)
      .where(eq(banners.isActive, true))
      .orderBy(asc(banners.sortOrder), asc(banners.bannerId))
      .limit(BANNER_LIST_MAX);
    return rows.map((row) => ({
      bannerId: row.bannerId,
      bannerImg: (locale === 'zh-HK' ? row.imagePathZhHk : null) ?? row.imagePath,
      webLink: row.webLink,
      isBlank: row.isBlank,
      title: locale === 'zh-HK' ? row.titleZhHk : row.titleEn,
    }));
  }
}
