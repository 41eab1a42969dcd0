CREATE TABLE "banners" (
	"banner_id" text PRIMARY KEY NOT NULL,
	"image_path" text NOT NULL,
	"web_link" text NOT NULL,
	"is_blank" boolean DEFAULT false NOT NULL,
	"title_en" text NOT NULL,
	"title_zh_hk" text NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "coin_networks" (
	"id" serial PRIMARY KEY NOT NULL,
	"coin_code" text NOT NULL,
	"network" text NOT NULL,
	"withdraw_min_minor" numeric(38, 0) NOT NULL,
	"withdraw_max_minor" numeric(38, 0) NOT NULL,
	"withdraw_fee_minor" numeric(38, 0) NOT NULL,
	"confirmations_required" integer NOT NULL,
	"is_deposit_enabled" boolean DEFAULT true NOT NULL,
	"is_withdraw_enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "coin_networks_coin_network_key" UNIQUE("coin_code","network")
);
--> statement-breakpoint
CREATE TABLE "coins" (
	"coin_code" text PRIMARY KEY NOT NULL,
	"full_name" text NOT NULL,
	"icon_path" text NOT NULL,
	"precision" integer NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"is_enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "coin_networks" ADD CONSTRAINT "coin_networks_coin_code_coins_coin_code_fk" FOREIGN KEY ("coin_code") REFERENCES "public"."coins"("coin_code") ON DELETE no action ON UPDATE no action;