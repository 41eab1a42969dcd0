CREATE TABLE "fund_accrual_days" (
	"day" date PRIMARY KEY NOT NULL,
	"holding_count" integer NOT NULL,
	"total_minor" numeric(38, 0) NOT NULL,
	"finished_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "fund_accruals" (
	"holding_id" bigint NOT NULL,
	"day" date NOT NULL,
	"user_id" text NOT NULL,
	"kind" text NOT NULL,
	"amount_minor" numeric(38, 0) NOT NULL,
	CONSTRAINT "fund_accruals_holding_id_day_pk" PRIMARY KEY("holding_id","day")
);
--> statement-breakpoint
CREATE TABLE "fund_holdings" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"product_id" text NOT NULL,
	"kind" text NOT NULL,
	"order_id" bigint,
	"shares_minor" numeric(38, 0) DEFAULT 0 NOT NULL,
	"day_start_date" date NOT NULL,
	"day_start_shares_minor" numeric(38, 0) DEFAULT 0 NOT NULL,
	"day_min_shares_minor" numeric(38, 0) DEFAULT 0 NOT NULL,
	"prev_day_date" date,
	"prev_day_min_shares_minor" numeric(38, 0) DEFAULT 0 NOT NULL,
	"unsettled_minor" numeric(38, 0) DEFAULT 0 NOT NULL,
	"accrual_month" text,
	"unsettled_month_minor" numeric(38, 0) DEFAULT 0 NOT NULL,
	"paid_minor" numeric(38, 0) DEFAULT 0 NOT NULL,
	"last_payout_month" text,
	"interest_date" date,
	"maturity_date" date,
	"status" text DEFAULT 'HOLDING' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "fund_orders" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"product_id" text NOT NULL,
	"action" text NOT NULL,
	"action_type" text,
	"coin" text,
	"amount_minor" numeric(38, 0) NOT NULL,
	"interest_minor" numeric(38, 0),
	"status" text NOT NULL,
	"reference" text,
	"bank_account_id" text,
	"holding_id" bigint,
	"idempotency_key" text,
	"request_hash" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	CONSTRAINT "fund_orders_reference_key" UNIQUE("reference"),
	CONSTRAINT "fund_orders_user_idempotency_key" UNIQUE("user_id","idempotency_key")
);
--> statement-breakpoint
CREATE TABLE "fund_payouts" (
	"month" text PRIMARY KEY NOT NULL,
	"paid_on" date NOT NULL,
	"holding_count" integer NOT NULL,
	"total_minor" numeric(38, 0) NOT NULL,
	"finished_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "fund_products" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"name_en" text NOT NULL,
	"name_zh_hk" text NOT NULL,
	"period_days" integer NOT NULL,
	"raise_start_date" date,
	"raise_end_date" date,
	"interest_date" date,
	"maturity_date" date,
	"min_minor" numeric(38, 0) NOT NULL,
	"max_minor" numeric(38, 0) NOT NULL,
	"limit_minor" numeric(38, 0) NOT NULL,
	"redeem_min_minor" numeric(38, 0),
	"is_active" boolean DEFAULT true NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "fund_rate_tiers" (
	"product_id" text NOT NULL,
	"tier_index" integer NOT NULL,
	"up_to_minor" numeric(38, 0),
	"annual_rate_bps" integer NOT NULL,
	CONSTRAINT "fund_rate_tiers_product_id_tier_index_pk" PRIMARY KEY("product_id","tier_index")
);
--> statement-breakpoint
CREATE TABLE "fund_wires_in" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"reference" text NOT NULL,
	"bank_transaction_id" text NOT NULL,
	"amount_minor" numeric(38, 0) NOT NULL,
	"sender" text NOT NULL,
	"status" text NOT NULL,
	"suspense_reason" text,
	"order_id" bigint,
	"recorded_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fund_wires_in_bank_transaction_key" UNIQUE("bank_transaction_id")
);
--> statement-breakpoint
CREATE TABLE "fund_wires_out" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"order_id" bigint NOT NULL,
	"user_id" text NOT NULL,
	"reference" text NOT NULL,
	"amount_minor" numeric(38, 0) NOT NULL,
	"bank_account_id" text NOT NULL,
	"bank_account" jsonb NOT NULL,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"note" text,
	"decided_by" text,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fund_wires_out_order_key" UNIQUE("order_id")
);
--> statement-breakpoint
ALTER TABLE "fund_holdings" ADD CONSTRAINT "fund_holdings_product_id_fund_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."fund_products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fund_rate_tiers" ADD CONSTRAINT "fund_rate_tiers_product_id_fund_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."fund_products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "fund_accruals_user_day_idx" ON "fund_accruals" USING btree ("user_id","day");--> statement-breakpoint
CREATE UNIQUE INDEX "fund_holdings_current_user_key" ON "fund_holdings" USING btree ("user_id") WHERE kind = 'CURRENT';--> statement-breakpoint
CREATE INDEX "fund_holdings_user_idx" ON "fund_holdings" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "fund_holdings_maturity_idx" ON "fund_holdings" USING btree ("maturity_date") WHERE kind = 'FIXED' AND status = 'HOLDING';--> statement-breakpoint
CREATE INDEX "fund_orders_user_created_idx" ON "fund_orders" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "fund_wires_in_created_idx" ON "fund_wires_in" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "fund_wires_out_status_idx" ON "fund_wires_out" USING btree ("status","created_at");