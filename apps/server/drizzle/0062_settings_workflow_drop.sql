-- The former per-module proposal tables, copied into setting_changes by 0061, and the columns its `kind` replaced.
DROP TABLE "card_setting_changes" CASCADE;--> statement-breakpoint
DROP TABLE "loan_setting_changes" CASCADE;--> statement-breakpoint
ALTER TABLE "setting_changes" DROP COLUMN "target_kind";--> statement-breakpoint
ALTER TABLE "setting_changes" DROP COLUMN "field";