import type { BannerBody, BannerImageUpload, OpsBanner } from '@meridian/contracts/back-office';
import { BANNER_IMAGE_URL_PREFIX, bannerStateAt, uploadedBannerImageId } from '@meridian/contracts/back-office';
import type { Banner } from '@meridian/contracts/banner';
import type { Locale } from '@meridian/contracts/locale';
import { randomUUID } from 'node:crypto';
import { and, asc, eq, gt, inArray, isNull, lte, max, or } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.ts';
import { DomainError, FieldError } from '../../platform/http/errors.ts';
import type { Clock } from '../../platform/clock/clock.ts';
import type { UploadStore } from '../../platform/uploads/upload-store.ts';
import type { ValidatedUpload } from '../../platform/uploads/upload-rules.ts';
import type { MarketPrices } from './market.prices.ts';
import { bannerImages, banners } from './market.tables.ts';

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
 * office), and through `prices` the coin prices, their history and the
 * market table. Other modules ask `prices.usdPrice(coin)` for a USD price.
 */
export class MarketService {
  constructor(
    private readonly db: Db,
    readonly prices: MarketPrices,
    private readonly clock: Clock,
    /** The upload store (platform/uploads) the banner images are kept in, encrypted. */
    private readonly uploads: UploadStore,
  ) {}

  /**
   * Keep an uploaded banner image (already validated by the upload rules: PNG, JPEG or WebP by
   * content, at most 2 MB, metadata removed): the bytes go to the upload store, a `banner_images`
   * row says what they are. Nothing refers to it until a banner is saved with its `path`.
   */
  async saveBannerImage(file: ValidatedUpload, uploadedBy: string): Promise<BannerImageUpload> {
    const stored = await this.uploads.save(file);
    try {
      const [row] = await this.db
        .insert(bannerImages)
        .values({ ...stored, uploadedBy })
        .returning();
      if (!row) throw new Error('banner image insert returned no row');
      return {
        id: row.id,
        path: `${BANNER_IMAGE_URL_PREFIX}${row.id}`,
        fileName: row.fileName,
        mimeType: row.mimeType as BannerImageUpload['mimeType'],
        sizeBytes: row.sizeBytes,
      };
    } catch (error) {
      await this.uploads.remove(stored.storageKey);
      throw error;
    }
  }

  /**
   * The bytes and content type of an uploaded banner image (public: banners are shown to anyone).
   * @throws DomainError NOT_FOUND (104) when there is no image `id` or its bytes are gone.
   */
  async readBannerImage(id: string): Promise<{ bytes: Buffer; mimeType: string }> {
    const [row] = await this.db.select().from(bannerImages).where(eq(bannerImages.id, id));
    const bytes = row ? await this.uploads.read(row.storageKey) : null;
    if (!row || !bytes) throw new DomainError('NOT_FOUND');
    return { bytes, mimeType: row.mimeType };
  }

  /**
   * Check that the uploaded images a banner body names exist (the contract checks only their shape).
   * @throws FieldError `imagePath` / `imagePathZhHk` (`validation.bannerImage`) for an unknown one.
   */
  private async assertImagesExist(body: BannerBody): Promise<void> {
    const wanted = (['imagePath', 'imagePathZhHk'] as const).flatMap((field) => {
      const path = body[field];
      const id = path === null ? null : uploadedBannerImageId(path);
      return id === null ? [] : [{ field, id }];
    });
    if (wanted.length === 0) return;
    const found = await this.db
      .select({ id: bannerImages.id })
      .from(bannerImages)
      .where(
        inArray(
          bannerImages.id,
          wanted.map((item) => item.id),
        ),
      );
    const known = new Set(found.map((row) => row.id));
    const missing = wanted.find((item) => !known.has(item.id));
    if (missing) throw new FieldError(missing.field, 'validation.bannerImage');
  }

  /**
   * Active banners inside their schedule window now (`startsAt` ≤ now < `endsAt`, null = open) in
   * display order, titled in `locale`, with the image of that language where the banner has one
   * (`market/banner/getList`).
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

  /** Every banner (back office), in display order, each with its state now. */
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
   * @throws FieldError `imagePath` / `imagePathZhHk` naming an uploaded image that does not exist.
   * @returns the stored banner.
   */
  async createBanner(body: BannerBody): Promise<OpsBanner> {
    await this.assertImagesExist(body);
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
   * @throws DomainError NOT_FOUND (104) when there is no banner `id`; FieldError `imagePath` /
   *   `imagePathZhHk` naming an uploaded image that does not exist.
   */
  async updateBanner(id: string, body: BannerBody): Promise<OpsBanner> {
    await this.assertImagesExist(body);
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
