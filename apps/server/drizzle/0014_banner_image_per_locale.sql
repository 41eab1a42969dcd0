-- A banner image carries text, so each language needs its own: zh-HK callers get image_path_zh_hk
-- when set (apps/server/src/modules/market/market.service.ts). The demo banners seeded before this
-- migration get the zh-HK images shipped in apps/web/public/banners.
ALTER TABLE "banners" ADD COLUMN "image_path_zh_hk" text;
--> statement-breakpoint
UPDATE "banners" SET "image_path_zh_hk" = replace("image_path", '.svg', '.zh-HK.svg')
WHERE "banner_id" IN ('earn', 'trust', 'loan', 'card', 'exchange') AND "image_path" = '/banners/' || "banner_id" || '.svg';
