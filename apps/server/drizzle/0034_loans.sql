CREATE TABLE "loan_adjustments" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"loan_id" bigint NOT NULL,
	"user_id" uuid NOT NULL,
	"direction" text NOT NULL,
	"origin" text NOT NULL,
	"amount_minor" numeric(38, 0) NOT NULL,
	"collateral_after_minor" numeric(38, 0) NOT NULL,
	"ltv_before" numeric,
	"ltv_after" numeric,
	"price" numeric,
	"entry_id" bigint NOT NULL,
	"idempotency_key" text NOT NULL,
	"request_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "loan_adjustments_key_uq" UNIQUE("loan_id","idempotency_key")
);
--> statement-breakpoint
CREATE TABLE "loan_coins" (
	"coin" text PRIMARY KEY NOT NULL,
	"is_enabled" boolean DEFAULT true NOT NULL,
	"min_principal_minor" numeric(38, 0) NOT NULL,
	"pool_capacity_minor" numeric(38, 0) NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "loan_engine_alarms" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"reason" text NOT NULL,
	"detail" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "loan_liquidations" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"loan_id" bigint NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"loan_coin" text NOT NULL,
	"price_event" text NOT NULL,
	"price" numeric NOT NULL,
	"price_sources" jsonb NOT NULL,
	"collateral_sold_minor" numeric(38, 0) NOT NULL,
	"fee_minor" numeric(38, 0) NOT NULL,
	"debt_repaid_minor" numeric(38, 0) NOT NULL,
	"collateral_returned_minor" numeric(38, 0) NOT NULL,
	"shortfall_minor" numeric(38, 0) NOT NULL,
	"ltv_before" numeric NOT NULL,
	"ltv_after" numeric,
	"status_after" smallint NOT NULL,
	"entry_id" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "loan_liquidations_event_uq" UNIQUE("loan_id","price_event")
);
--> statement-breakpoint
CREATE TABLE "loan_protections" (
	"loan_id" bigint PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"is_enabled" boolean NOT NULL,
	"action" text NOT NULL,
	"trigger_ltv_bps" integer NOT NULL,
	"target_ltv_bps" integer NOT NULL,
	"max_amount_minor" numeric(38, 0) NOT NULL,
	"last_run_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "loan_protections_action_known" CHECK ("loan_protections"."action" IN ('ADD_COLLATERAL', 'REPAY')),
	CONSTRAINT "loan_protections_target_below_trigger" CHECK ("loan_protections"."target_ltv_bps" < "loan_protections"."trigger_ltv_bps")
);
--> statement-breakpoint
CREATE TABLE "loan_repayments" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"loan_id" bigint NOT NULL,
	"user_id" uuid NOT NULL,
	"loan_coin" text NOT NULL,
	"repay_type" text NOT NULL,
	"origin" text NOT NULL,
	"amount_minor" numeric(38, 0) NOT NULL,
	"interest_minor" numeric(38, 0) NOT NULL,
	"overdue_interest_minor" numeric(38, 0) NOT NULL,
	"principal_minor" numeric(38, 0) NOT NULL,
	"fee_minor" numeric(38, 0) NOT NULL,
	"collateral_sold_minor" numeric(38, 0) NOT NULL,
	"collateral_released_minor" numeric(38, 0) NOT NULL,
	"price" numeric,
	"status_after" smallint NOT NULL,
	"entry_id" bigint NOT NULL,
	"idempotency_key" text NOT NULL,
	"request_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "loan_repayments_key_uq" UNIQUE("loan_id","idempotency_key")
);
--> statement-breakpoint
CREATE TABLE "loan_settings" (
	"id" integer PRIMARY KEY NOT NULL,
	"initial_ltv_bps" integer NOT NULL,
	"margin_call_ltv_bps" integer NOT NULL,
	"liquidation_ltv_bps" integer NOT NULL,
	"alert_levels_bps" jsonb NOT NULL,
	"alert_rearm_bps" integer NOT NULL,
	"max_outstanding_usd_minor" numeric(38, 0) NOT NULL,
	"liquidation_fee_bps" integer NOT NULL,
	"early_repay_fee_bps" integer NOT NULL,
	"overdue_grace_days" integer NOT NULL,
	"overdue_rate_multiplier" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "loan_settings_one_row" CHECK ("loan_settings"."id" = 1),
	CONSTRAINT "loan_settings_ltv_order" CHECK (0 < "loan_settings"."initial_ltv_bps" AND "loan_settings"."initial_ltv_bps" < "loan_settings"."margin_call_ltv_bps" AND "loan_settings"."margin_call_ltv_bps" < "loan_settings"."liquidation_ltv_bps" AND "loan_settings"."liquidation_ltv_bps" < 10000),
	CONSTRAINT "loan_settings_fee_fits" CHECK ("loan_settings"."liquidation_fee_bps" >= 0 AND "loan_settings"."liquidation_fee_bps" + "loan_settings"."initial_ltv_bps" < 10000)
);
--> statement-breakpoint
CREATE TABLE "loan_terms" (
	"term_days" integer PRIMARY KEY NOT NULL,
	"annual_rate_bps" integer NOT NULL,
	"is_enabled" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "loan_terms_rate_range" CHECK ("loan_terms"."annual_rate_bps" BETWEEN 0 AND 100000)
);
--> statement-breakpoint
CREATE TABLE "loans" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"status" smallint DEFAULT 0 NOT NULL,
	"loan_coin" text NOT NULL,
	"collateral_minor" numeric(38, 0) NOT NULL,
	"principal_minor" numeric(38, 0) NOT NULL,
	"outstanding_principal_minor" numeric(38, 0) NOT NULL,
	"term_days" integer NOT NULL,
	"annual_rate_bps" integer NOT NULL,
	"interest_minor" numeric(38, 0) NOT NULL,
	"interest_paid_minor" numeric(38, 0) DEFAULT 0 NOT NULL,
	"overdue_interest_minor" numeric(38, 0) DEFAULT 0 NOT NULL,
	"overdue_interest_paid_minor" numeric(38, 0) DEFAULT 0 NOT NULL,
	"overdue_days" integer DEFAULT 0 NOT NULL,
	"fees_paid_minor" numeric(38, 0) DEFAULT 0 NOT NULL,
	"liquidation_price" numeric,
	"alerts_fired" integer DEFAULT 0 NOT NULL,
	"borrowed_at" timestamp with time zone NOT NULL,
	"repayment_date" text NOT NULL,
	"closed_at" timestamp with time zone,
	"entry_id" bigint,
	"idempotency_key" text NOT NULL,
	"request_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "loans_user_key_uq" UNIQUE("user_id","idempotency_key"),
	CONSTRAINT "loans_status_known" CHECK ("loans"."status" BETWEEN 0 AND 9),
	CONSTRAINT "loans_amounts_non_negative" CHECK ("loans"."collateral_minor" >= 0 AND "loans"."outstanding_principal_minor" >= 0)
);
--> statement-breakpoint
CREATE INDEX "loan_adjustments_user_idx" ON "loan_adjustments" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "loan_liquidations_user_idx" ON "loan_liquidations" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "loan_protections_enabled_idx" ON "loan_protections" USING btree ("loan_id") WHERE "loan_protections"."is_enabled";--> statement-breakpoint
CREATE INDEX "loan_repayments_user_idx" ON "loan_repayments" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "loans_user_idx" ON "loans" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "loans_liquidation_price_open_idx" ON "loans" USING btree ("liquidation_price") WHERE "loans"."status" IN (3, 4);--> statement-breakpoint
CREATE INDEX "loans_alerted_open_idx" ON "loans" USING btree ("id") WHERE "loans"."status" IN (3, 4) AND "loans"."alerts_fired" <> 0;--> statement-breakpoint
CREATE INDEX "loans_due_open_idx" ON "loans" USING btree ("repayment_date") WHERE "loans"."status" IN (3, 4);