import { z } from 'zod';

/** A home-page banner. `isBlank` opens `webLink` in a new tab. */
export const bannerSchema = z.object({
  bannerId: z.string(),
  bannerImg: z.string(),
  webLink: z.string(),
  isBlank: z.boolean(),
  title: z.string(),
});
export type Banner = z.infer<typeof bannerSchema>;

/** `GET /api/market/banner/getList` content: the banners sit under `content.content`. */
export const bannerListContentSchema = z.object({ content: z.array(bannerSchema) });
export type BannerListContent = z.infer<typeof bannerListContentSchema>;
