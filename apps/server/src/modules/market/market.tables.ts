import { boolean, integer, numeric, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from '../../platform/db/columns.ts';

/**
 * Home-page banners. Titles are kept per locale; the image is a path the web app
 * serves. Only active banners inside their schedule window (`startsAt` inclusive, `endsAt`
 * exclusive, null = open) are listed, in `sortOrder`.
 */
export const banners = pgTable('banners', {
  bannerId: text('banner_id').primaryKey(),
  imagePath: text('image_path').notNull(),
  /** The zh-HK image (its texts in Traditional Chinese); null: the same image for every language. */
  imagePathZhHk: text('image_path_zh_hk'),
  webLink: text('web_link').notNull(),
  isBlank: boolean('is_blank').notNull().default(false),
  titleEn: text('title_en').notNull(),
  titleZhHk: text('title_zh_hk').notNull(),
  sortOrder: integer('sort_order').notNull().default(0),
  isActive: boolean('is_active').notNull().default(true),
  /** First moment the banner is shown; null: from the start (migration 0030). */
  startsAt: timestamp('starts_at', { withTimezone: true, mode: 'date' }),
  /** Moment the banner stops being shown; null: no end (migration 0030). */
  endsAt: timestamp('ends_at', { withTimezone: true, mode: 'date' }),
  createdAt: createdAt(),
});

/**
 * Banner images uploaded by operators (an image per language; docs/back-office.md "Uploaded banner images"): the
 * bytes are in the upload store (platform/uploads, encrypted like identity documents), this row
 * says what they are. Served to anyone at `GET /api/market/banner/image/:id` (a banner is public);
 * a banner refers to one by its path `/api/market/banner/image/<id>` in `image_path` or
 * `image_path_zh_hk`. Rows are never changed: a new picture is a new row (so the path can be cached
 * for ever).
 */
export const bannerImages = pgTable('banner_images', {
  id: uuid('id').primaryKey().defaultRandom(),
  storageKey: text('storage_key').notNull().unique(),
  fileName: text('file_name').notNull(),
  /** image/png, image/jpeg or image/webp, detected from the content. */
  mimeType: text('mime_type').notNull(),
  sizeBytes: integer('size_bytes').notNull(),
  sha256: text('sha256').notNull(),
  /** Email of the operator who uploaded it. */
  uploadedBy: text('uploaded_by').notNull(),
  createdAt: createdAt(),
});

/**
 * The scheduler's period claims (platform/jobs). Defined by the platform; re-exported here only so
 * that drizzle-kit, which reads the module table files only, generates its migration.
 */
export { jobRuns } from '../../platform/jobs/jobs.tables.ts';

const bucketAt = () => timestamp('bucket_at', { withTimezone: true, mode: 'date' }).notNull();
/** A USD price: an exact decimal (a rate, not an amount of money), kept with the source's own digits. */
const priceUsd = (name: string) => numeric(name).notNull();

/**
 * One sampled price per coin and minute (`bucket_at` is the minute's start, UTC). The primary key
 * makes the sampling job idempotent per minute. Kept 48 hours (MarketService retention).
 */
export const priceMinutes = pgTable(
  'price_minutes',
  {
    coinCode: text('coin_code').notNull(),
    bucketAt: bucketAt(),
    priceUsd: priceUsd('price_usd'),
    /** How the price was made: `median:binance+kraken`, `peg`, `replay:replay`. */
    source: text('source').notNull(),
  },
  (table) => [primaryKey({ columns: [table.coinCode, table.bucketAt] })],
);

/** Open/high/low/close of a coin per hour, rolled up from the minutes (set-based SQL). Kept 90 days. */
export const priceHours = pgTable(
  'price_hours',
  {
    coinCode: text('coin_code').notNull(),
    bucketAt: bucketAt(),
    openUsd: priceUsd('open_usd'),
    highUsd: priceUsd('high_usd'),
    lowUsd: priceUsd('low_usd'),
    closeUsd: priceUsd('close_usd'),
    sampleCount: integer('sample_count').notNull(),
  },
  (table) => [primaryKey({ columns: [table.coinCode, table.bucketAt] })],
);

/** Open/high/low/close of a coin per UTC day, rolled up from the hours. Kept forever. */
export const priceDays = pgTable(
  'price_days',
  {
    coinCode: text('coin_code').notNull(),
    bucketAt: bucketAt(),
    openUsd: priceUsd('open_usd'),
    highUsd: priceUsd('high_usd'),
    lowUsd: priceUsd('low_usd'),
    closeUsd: priceUsd('close_usd'),
    sampleCount: integer('sample_count').notNull(),
  },
  (table) => [primaryKey({ columns: [table.coinCode, table.bucketAt] })],
);
