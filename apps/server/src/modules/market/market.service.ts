import type { BannerBody, OpsBanner } from '@meridian/contracts/back-office';
import { bannerStateAt } from '@meridian/contracts/back-office';
import type { Banner } from '@meridian/contracts/banner';
import type { Locale } from '@meridian/contracts/locale';
import { randomUUID } from 'node:crypto';
import { and, asc, eq, gt, isNull, lte, max, or } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.ts';
import { DomainError, FieldError } from '../../platform/http/errors.ts';
import type { Clock } from '../../platform/prices/types.ts';
import type { MarketPrices } from './market.prices.ts';
import { banners } from './market.tables.ts';

/** The market's price service, as other modules see it (they import the market's service file only). */
export type { MarketPrices } from './market.prices.ts';

/** Banners shown at most, so one list call stays bounded. */
const BANNER_LIST_MAX = 20;

type BannerRow = typeof banners.$inferSelect;

/** A stored banner as the back office shows it, with its state at `now`. */
function toOpsBanner(row: BannerRow, now: Date): OpsBanner {
  const startsAt = row.startsAt?.toISOString() ?? null;
  const endsAt = row.endsAt?.toISOString() ?? null;
  return {
    id: row.bannerId,
    titleEn: row.titleEn,
    titleZh: row.titleZhHk,
    webLink: row.webLink,
    isBlank: row.isBlank,
    imagePath: row.imagePath,
    imagePathZhHk: row.imagePathZhHk,
    sortOrder: row.sortOrder,
    isActive: row.isActive,
    startsAt,
    endsAt,
    state: bannerStateAt({ isActive: row.isActive, startsAt, endsAt }, now),
    createdAt: row.createdAt.toISOString(),
  };
}

/** The stored columns of a banner body (validated by `bannerBodySchema`). */
function columnsOf(body: BannerBody) {
  return {
    titleEn: body.titleEn,
    titleZhHk: body.titleZh,
    webLink: body.webLink,
    isBlank: body.isBlank,
    imagePath: body.imagePath,
    imagePathZhHk: body.imagePathZhHk,
    startsAt: body.startsAt === null ? null : new Date(body.startsAt),
    endsAt: body.endsAt === null ? null : new Date(body.endsAt),
    isActive: body.isActive,
  };
}

/**
 * Market content of the home page: banners (listed to customers; managed by operators in the back
 * office, issue 16 "Content: banners"), and through `prices` the coin prices, their history and the
 * market table. Other modules ask `prices.usdPrice(coin)` for a USD price.
 */
export class MarketService {
  constructor(
    private readonly db: Db,
    readonly prices: MarketPrices,
    private readonly clock: Clock,
  ) {}

  /**
   * Active banners inside their schedule window now (`startsAt` ≤ now < `endsAt`, null = open) in
   * display order, titled in `locale`, with the image of that language where the banner has one
   * (spec §3 Banner; §7 market/banner/getList).
   */
  async listBanners(locale: Locale): Promise<Banner[]> {
    const now = this.clock.now();
    const rows = await this.db
      .select()
      .from(banners)
      .where(
        and(
          eq(banners.isActive, true),
          or(isNull(banners.startsAt), lte(banners.startsAt, now)),
          or(isNull(banners.endsAt), gt(banners.endsAt, now)),
        ),
      )
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

  /** Every banner (back office, issue 16), in display order, each with its state now. */
  async listAllBanners(): Promise<OpsBanner[]> {
    const now = this.clock.now();
    const rows = await this.db.select().from(banners).orderBy(asc(banners.sortOrder), asc(banners.bannerId));
    return rows.map((row) => toOpsBanner(row, now));
  }

  /** One banner as the back office shows it, or null when there is no banner `id`. */
  async findBanner(id: string): Promise<OpsBanner | null> {
    const [row] = await this.db.select().from(banners).where(eq(banners.bannerId, id));
    return row ? toOpsBanner(row, this.clock.now()) : null;
  }

  /**
   * Add a banner (back office) after every other one in display order; its id is generated.
   * @returns the stored banner.
   */
  async createBanner(body: BannerBody): Promise<OpsBanner> {
    const row = await this.db.transaction(async (tx) => {
      const [last] = await tx.select({ sortOrder: max(banners.sortOrder) }).from(banners);
      const [inserted] = await tx
        .insert(banners)
        .values({ bannerId: `b-${randomUUID()}`, ...columnsOf(body), sortOrder: (last?.sortOrder ?? 0) + 1 })
        .returning();
      return inserted;
    });
    if (!row) throw new Error('banner insert returned no row');
    return toOpsBanner(row, this.clock.now());
  }

  /**
   * Replace a banner's fields (not its position).
   * @throws DomainError NOT_FOUND (104) when there is no banner `id`.
   */
  async updateBanner(id: string, body: BannerBody): Promise<OpsBanner> {
    const [row] = await this.db.update(banners).set(columnsOf(body)).where(eq(banners.bannerId, id)).returning();
    if (!row) throw new DomainError('NOT_FOUND');
    return toOpsBanner(row, this.clock.now());
  }

  /**
   * Set the display order: `ids` must name every banner exactly once; the first gets position 1.
   * One transaction: a refusal changes nothing.
   * @throws FieldError `ids` (`validation.bannerOrder`) when `ids` is not every banner once.
   * @returns every banner in its new order.
   */
  async reorderBanners(ids: readonly string[]): Promise<OpsBanner[]> {
    await this.db.transaction(async (tx) => {
      const existing = await tx.select({ id: banners.bannerId }).from(banners);
      const known = new Set(existing.map((row) => row.id));
      const isPermutation =
        ids.length === known.size && new Set(ids).size === ids.length && ids.every((id) => known.has(id));
      if (!isPermutation) throw new FieldError('ids', 'validation.bannerOrder');
      for (const [index, id] of ids.entries()) {
        await tx
          .update(banners)
          .set({ sortOrder: index + 1 })
          .where(eq(banners.bannerId, id));
      }
    });
    return this.listAllBanners();
  }
}
