import { z } from 'zod';
import { INSTANT_LENGTH_MAX, SHORT_TEXT_LENGTH_MAX, uuidString } from '../limits.ts';
import { defineEndpoint } from '../endpoint.ts';
import { pageQuerySchema, pageSchema } from '../pagination.ts';

// ---------------------------------------------------------------- broadcasts (content)

/** Most characters of a broadcast's title (each language). */
export const BROADCAST_TITLE_LENGTH_MAX = 120;
/** Most characters of a broadcast's body (each language). */
export const BROADCAST_BODY_LENGTH_MAX = 2000;
/** Who a broadcast goes to: every active user, or the active users with KYC level ≥ 1 (basic verification). */
export const BROADCAST_SEGMENTS = ['all', 'verified'] as const;
export type BroadcastSegment = (typeof BROADCAST_SEGMENTS)[number];

const broadcastText = (lengthMax: number) =>
  z
    .string({ error: 'validation.required' })
    .trim()
    .min(1, { error: 'validation.required' })
    .max(lengthMax, { error: 'validation.tooLong' });

/**
 * `POST admin/broadcasts`: a message in both languages (each user reads their own) and its segment.
 * Every text is required; titles at most 120 characters, bodies at most 2,000; a bad field is named.
 */
export const sendBroadcastBodySchema = z.strictObject({
  titleEn: broadcastText(BROADCAST_TITLE_LENGTH_MAX),
  titleZh: broadcastText(BROADCAST_TITLE_LENGTH_MAX),
  bodyEn: broadcastText(BROADCAST_BODY_LENGTH_MAX),
  bodyZh: broadcastText(BROADCAST_BODY_LENGTH_MAX),
  segment: z.enum(BROADCAST_SEGMENTS, { error: 'validation.required' }),
});
export type SendBroadcastBody = z.infer<typeof sendBroadcastBodySchema>;

/** A sent broadcast: its texts, segment, how many users it reached, who sent it and when. */
export const broadcastSchema = z.object({
  id: z.number().int(),
  titleEn: z.string(),
  titleZh: z.string(),
  bodyEn: z.string(),
  bodyZh: z.string(),
  segment: z.enum(BROADCAST_SEGMENTS),
  recipientCount: z.number().int(),
  operatorEmail: z.string(),
  createdAt: z.string(),
});
export type Broadcast = z.infer<typeof broadcastSchema>;

export const backOfficeBroadcastEndpoints = {
  listBroadcasts: defineEndpoint({
    method: 'GET',
    path: '/admin/broadcasts',
    tag: 'back-office',
    summary: 'Broadcast messages sent, newest first',
    auth: 'operator',
    roles: ['compliance', 'support'],
    query: pageQuerySchema,
    content: pageSchema(broadcastSchema),
  }),
  sendBroadcast: defineEndpoint({
    method: 'POST',
    path: '/admin/broadcasts',
    tag: 'back-office',
    summary: 'Send a message to every active user of a segment, each in their language',
    auth: 'operator',
    roles: ['compliance'],
    body: sendBroadcastBodySchema,
    content: broadcastSchema,
  }),
};

// ---------------------------------------------------------------- banners (content)

/** Most characters of a banner's title (each language). */
export const BANNER_TITLE_LENGTH_MAX = 80;
/** Most characters of a banner's link. */
export const BANNER_LINK_LENGTH_MAX = 500;
/** Most banners one reorder call may list. */
export const BANNER_ORDER_MAX = 200;

/**
 * The banner images the web app ships (`apps/web/public/banners`), one per product and language
 * (`.zh-HK.svg`: texts in Traditional Chinese). An operator chooses a banner's image per language
 * from these paths; uploads are not built yet.
 */
export const BANNER_IMAGES = [
  '/banners/earn.svg',
  '/banners/earn.zh-HK.svg',
  '/banners/trust.svg',
  '/banners/trust.zh-HK.svg',
  '/banners/loan.svg',
  '/banners/loan.zh-HK.svg',
  '/banners/card.svg',
  '/banners/card.zh-HK.svg',
  '/banners/exchange.svg',
  '/banners/exchange.zh-HK.svg',
] as const;
export type BannerImage = (typeof BANNER_IMAGES)[number];

/**
 * A banner's state at a time: `off` (switched off), `scheduled` (on, its start is still ahead),
 * `ended` (on, its end has passed), `live` (on and inside its window: customers see it).
 */
export const BANNER_STATES = ['scheduled', 'live', 'ended', 'off'] as const;
export type BannerState = (typeof BANNER_STATES)[number];

/**
 * Whether `link` may be a banner's link: a site path (`/…`, not `//host`, no spaces or backslashes)
 * or an absolute `https:` URL with a host. Anything else (http, javascript:, mailto:) is refused.
 */
export function isBannerLink(link: string): boolean {
  if (/[\s\\]/.test(link)) return false;
  if (link.startsWith('/')) return !link.startsWith('//');
  if (!link.startsWith('https://')) return false;
  try {
    const url = new URL(link);
    return url.protocol === 'https:' && url.hostname.length > 0;
  } catch {
    return false;
  }
}

/**
 * The state of a banner at `now` (see `BANNER_STATES`): its window is `startsAt` inclusive to
 * `endsAt` exclusive; null on either side leaves it open.
 */
export function bannerStateAt(
  banner: { isActive: boolean; startsAt: string | null; endsAt: string | null },
  now: Date,
): BannerState {
  if (!banner.isActive) return 'off';
  if (banner.startsAt !== null && Date.parse(banner.startsAt) > now.getTime()) return 'scheduled';
  if (banner.endsAt !== null && Date.parse(banner.endsAt) <= now.getTime()) return 'ended';
  return 'live';
}

const bannerTitle = z
  .string({ error: 'validation.required' })
  .trim()
  .min(1, { error: 'validation.required' })
  .max(BANNER_TITLE_LENGTH_MAX, { error: 'validation.tooLong' });
/** Where an uploaded banner image is served (`GET /api/market/banner/image/:id`, public, cached). */
export const BANNER_IMAGE_URL_PREFIX = '/api/market/banner/image/';
const UPLOADED_BANNER_IMAGE =
  /^\/api\/market\/banner\/image\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Whether `path` is the served path of an uploaded banner image (not whether that image exists). */
export function isUploadedBannerImage(path: string): boolean {
  return UPLOADED_BANNER_IMAGE.test(path);
}

/** The id of an uploaded banner image from its served path, or null for a shipped image. */
export function uploadedBannerImageId(path: string): string | null {
  return isUploadedBannerImage(path) ? path.slice(BANNER_IMAGE_URL_PREFIX.length) : null;
}

/** A banner image: one the web app ships (`BANNER_IMAGES`) or an uploaded one's served path. */
const bannerImage = z
  .string({ error: 'validation.bannerImage' })
  .max(SHORT_TEXT_LENGTH_MAX)
  .refine((path) => (BANNER_IMAGES as readonly string[]).includes(path) || isUploadedBannerImage(path), {
    error: 'validation.bannerImage',
  });
const bannerTime = z.iso.datetime({ offset: true, error: 'validation.required' }).max(INSTANT_LENGTH_MAX).nullable();

/**
 * `POST admin/banners` and `PUT admin/banners/:id`: a banner in both languages. Titles required,
 * at most 80 characters each; `webLink` a site path (`/…`) or an https URL (`isBannerLink`);
 * `imagePath` one of `BANNER_IMAGES` or an uploaded image's path (`BANNER_IMAGE_URL_PREFIX<id>`,
 * which the server checks exists), `imagePathZhHk` the same or null (the same image for zh-HK); `startsAt` / `endsAt` ISO 8601 times with an offset, null = open, the end after the
 * start; `isBlank` opens the link in a new tab. A bad field is named (120).
 */
export const bannerBodySchema = z
  .strictObject({
    titleEn: bannerTitle,
    titleZh: bannerTitle,
    webLink: z
      .string({ error: 'validation.required' })
      .trim()
      .min(1, { error: 'validation.required' })
      .max(BANNER_LINK_LENGTH_MAX, { error: 'validation.tooLong' })
      .refine(isBannerLink, { error: 'validation.bannerLink' }),
    isBlank: z.boolean(),
    imagePath: bannerImage,
    imagePathZhHk: bannerImage.nullable(),
    startsAt: bannerTime,
    endsAt: bannerTime,
    isActive: z.boolean(),
  })
  .refine(
    (body) => body.startsAt === null || body.endsAt === null || Date.parse(body.endsAt) > Date.parse(body.startsAt),
    {
      error: 'validation.scheduleOrder',
      path: ['endsAt'],
    },
  );
export type BannerBody = z.infer<typeof bannerBodySchema>;

/** `POST admin/banners/order`: every banner's id once, in the new display order (first = shown first). */
export const bannerOrderBodySchema = z.strictObject({
  ids: z.array(z.string().min(1).max(64)).min(1).max(BANNER_ORDER_MAX),
});

/** A banner as the back office shows it: its fields, display position, schedule and state now. */
export const opsBannerSchema = z.object({
  id: z.string(),
  titleEn: z.string(),
  titleZh: z.string(),
  webLink: z.string(),
  isBlank: z.boolean(),
  /** A path the web app serves (e.g. `/banners/earn.svg`). */
  imagePath: z.string(),
  /** The zh-HK image; null: the same image for every language. */
  imagePathZhHk: z.string().nullable(),
  sortOrder: z.number().int(),
  isActive: z.boolean(),
  startsAt: z.string().nullable(),
  endsAt: z.string().nullable(),
  state: z.enum(BANNER_STATES),
  createdAt: z.string(),
});
export type OpsBanner = z.infer<typeof opsBannerSchema>;

const bannerIdParamsSchema = z.object({ id: z.string().min(1).max(64) });

/** The multipart part that carries a banner image, and the field its refusals name. */
export const BANNER_IMAGE_FIELD = 'image';
/** Largest banner image, bytes (the server's `BANNER_IMAGE_UPLOAD_PROFILE` limit). */
export const BANNER_IMAGE_BYTES_MAX = 2 * 1024 * 1024;
/** Content types of a banner image (checked by magic bytes on the server). */
export const BANNER_IMAGE_MIME_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;

/** A stored banner image: `path` is what a banner's `imagePath` / `imagePathZhHk` takes. */
export const bannerImageUploadSchema = z.object({
  id: z.string(),
  path: z.string(),
  fileName: z.string(),
  mimeType: z.enum(BANNER_IMAGE_MIME_TYPES),
  sizeBytes: z.number().int(),
});
export type BannerImageUpload = z.infer<typeof bannerImageUploadSchema>;

/** `GET market/banner/image/:id` parameters. */
export const bannerImageParamsSchema = z.object({ id: uuidString({ error: 'validation.required' }) });

export const backOfficeBannerEndpoints = {
  listBanners: defineEndpoint({
    method: 'GET',
    path: '/admin/banners',
    tag: 'back-office',
    summary: 'Every home-page banner in display order, with its state now',
    auth: 'operator',
    roles: ['compliance', 'support'],
    content: z.array(opsBannerSchema),
  }),
  createBanner: defineEndpoint({
    method: 'POST',
    path: '/admin/banners',
    tag: 'back-office',
    summary: 'Add a home-page banner (shown last)',
    auth: 'operator',
    roles: ['compliance'],
    body: bannerBodySchema,
    content: opsBannerSchema,
  }),
  updateBanner: defineEndpoint({
    method: 'PUT',
    path: '/admin/banners/:id',
    tag: 'back-office',
    summary: 'Edit a home-page banner',
    auth: 'operator',
    roles: ['compliance'],
    params: bannerIdParamsSchema,
    body: bannerBodySchema,
    content: opsBannerSchema,
  }),
  uploadBannerImage: defineEndpoint({
    method: 'POST',
    path: '/admin/banners/images',
    tag: 'back-office',
    summary:
      'Upload a banner image: multipart/form-data with one file in the part `image`; PNG, JPEG or WebP by content, at most 2 MB, a name of at most 50 characters (refusals name the field `image`)',
    auth: 'operator',
    roles: ['compliance'],
    content: bannerImageUploadSchema,
  }),
  reorderBanners: defineEndpoint({
    method: 'POST',
    path: '/admin/banners/order',
    tag: 'back-office',
    summary: 'Set the display order of every banner',
    auth: 'operator',
    roles: ['compliance'],
    body: bannerOrderBodySchema,
    content: z.array(opsBannerSchema),
  }),
};
