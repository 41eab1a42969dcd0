CREATE TABLE "card_setting_changes" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "card_setting_changes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"before" jsonb NOT NULL,
	"after" jsonb NOT NULL,
	"status" text DEFAULT 'proposed' NOT NULL,
	"proposed_by_id" integer NOT NULL,
	"proposed_by_email" text NOT NULL,
	"proposed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_by_id" integer,
	"decided_by_email" text,
	"decided_at" timestamp with time zone,
	CONSTRAINT "card_setting_changes_status_known" CHECK ("card_setting_changes"."status" IN ('proposed', 'applied', 'rejected')),
	CONSTRAINT "card_setting_changes_four_eyes" CHECK ("card_setting_changes"."status" <> 'applied' OR "card_setting_changes"."decided_by_id" <> "card_setting_changes"."proposed_by_id")
);
--> statement-breakpoint
ALTER TABLE "card_settings" ADD COLUMN "physical_fee_usdt_minor" numeric(38, 0) DEFAULT 10000000 NOT NULL;--> statement-breakpoint
ALTER TABLE "card_settings" ADD COLUMN "physical_cards_max" integer DEFAULT 3 NOT NULL;--> statement-breakpoint
ALTER TABLE "card_settings" ADD COLUMN "is_promotion_enabled" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "card_settings" ADD COLUMN "virtual_currencies" jsonb DEFAULT '["USD","EUR","JPY","GBP"]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "card_settings" ADD COLUMN "top_up_min_minor" numeric(38, 0) DEFAULT 10000000 NOT NULL;--> statement-breakpoint
ALTER TABLE "card_settings" ADD COLUMN "top_up_max_minor" numeric(38, 0) DEFAULT 100000000000 NOT NULL;--> statement-breakpoint
ALTER TABLE "card_settings" ADD COLUMN "default_limits" jsonb DEFAULT '{"USD":{"perTransaction":"5000.00","daily":"10000.00","monthly":"50000.00"},"EUR":{"perTransaction":"5000.00","daily":"10000.00","monthly":"50000.00"},"GBP":{"perTransaction":"5000.00","daily":"10000.00","monthly":"50000.00"},"JPY":{"perTransaction":"750000","daily":"1500000","monthly":"7500000"}}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "card_settings" ADD CONSTRAINT "card_settings_one_row" CHECK ("card_settings"."id" = 1);--> statement-breakpoint
ALTER TABLE "card_settings" ADD CONSTRAINT "card_settings_fees_non_negative" CHECK ("card_settings"."virtual_fee_usdt_minor" >= 0 AND "card_settings"."physical_fee_usdt_minor" >= 0);--> statement-breakpoint
ALTER TABLE "card_settings" ADD CONSTRAINT "card_settings_cards_max" CHECK ("card_settings"."physical_cards_max" BETWEEN 0 AND 20);--> statement-breakpoint
ALTER TABLE "card_settings" ADD CONSTRAINT "card_settings_top_up_bounds" CHECK (0 < "card_settings"."top_up_min_minor" AND "card_settings"."top_up_min_minor" <= "card_settings"."top_up_max_minor");