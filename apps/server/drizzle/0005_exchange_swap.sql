CREATE TABLE "exchange_pairs" (
	"pair" text PRIMARY KEY NOT NULL,
	"is_enabled" boolean DEFAULT true NOT NULL,
	"spread_bps" integer,
	"from_min_minor" numeric(38, 0),
	"from_max_minor" numeric(38, 0),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "exchange_quotes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"kind" text NOT NULL,
	"from_coin" text NOT NULL,
	"to_coin" text NOT NULL,
	"side" text NOT NULL,
	"from_amount_minor" numeric(38, 0) NOT NULL,
	"to_amount_minor" numeric(38, 0) NOT NULL,
	"rate" numeric NOT NULL,
	"spread_bps" integer NOT NULL,
	"from_price_usd" numeric NOT NULL,
	"to_price_usd" numeric NOT NULL,
	"status" text DEFAULT 'OPEN' NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"executed_at" timestamp with time zone,
	"entry_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "exchange_quotes_user_executed_idx" ON "exchange_quotes" USING btree ("user_id","status","executed_at");