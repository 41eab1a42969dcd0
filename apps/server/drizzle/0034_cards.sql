CREATE TABLE "card_limit_requests" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"card_id" bigint NOT NULL,
	"state" text DEFAULT 'PENDING' NOT NULL,
	"per_transaction_minor" numeric(38, 0),
	"daily_minor" numeric(38, 0),
	"monthly_minor" numeric(38, 0),
	"reason" text NOT NULL,
	"decided_at" timestamp with time zone,
	"decided_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "card_settings" (
	"id" integer PRIMARY KEY NOT NULL,
	"virtual_fee_usdt_minor" numeric(38, 0) NOT NULL,
	"promotion_starts_at" timestamp with time zone,
	"promotion_ends_at" timestamp with time zone,
	"fx_rates" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "card_suspense_items" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"event_type" text NOT NULL,
	"processor_auth_id" text NOT NULL,
	"card_token" text NOT NULL,
	"amount_minor" numeric(38, 0) NOT NULL,
	"currency" text NOT NULL,
	"entry_id" bigint,
	"state" text DEFAULT 'OPEN' NOT NULL,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "card_topup_quotes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"card_id" bigint NOT NULL,
	"user_id" uuid NOT NULL,
	"coin" text NOT NULL,
	"amount_minor" numeric(38, 0) NOT NULL,
	"credit_minor" numeric(38, 0) NOT NULL,
	"rate" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "card_transactions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"card_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"status" text NOT NULL,
	"amount_minor" numeric(38, 0) NOT NULL,
	"held_minor" numeric(38, 0) DEFAULT 0 NOT NULL,
	"original_amount" text NOT NULL,
	"original_currency" text NOT NULL,
	"merchant_name" text,
	"mcc" text,
	"decline_reason" text,
	"processor_auth_id" text,
	"processor_refund_id" text,
	"is_online" boolean,
	"confirm_reason" text,
	"confirm_by" timestamp with time zone,
	"source_coin" text,
	"source_amount_minor" numeric(38, 0),
	"idempotency_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "card_transactions_idempotency_key" UNIQUE("card_id","idempotency_key"),
	CONSTRAINT "card_transactions_kind_known" CHECK ("card_transactions"."kind" IN ('PURCHASE', 'REFUND', 'TOPUP', 'FEE')),
	CONSTRAINT "card_transactions_amounts" CHECK ("card_transactions"."amount_minor" >= 0 AND "card_transactions"."held_minor" >= 0)
);
--> statement-breakpoint
CREATE TABLE "cards" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"network" text NOT NULL,
	"currency" text NOT NULL,
	"status" text NOT NULL,
	"is_locked" boolean DEFAULT false NOT NULL,
	"processor_token" text NOT NULL,
	"first4" text NOT NULL,
	"last4" text NOT NULL,
	"expiry_month" integer NOT NULL,
	"expiry_year" integer NOT NULL,
	"cardholder_name" text NOT NULL,
	"is_bound" boolean DEFAULT false NOT NULL,
	"is_pin_set" boolean DEFAULT false NOT NULL,
	"pin_wrong_count" integer DEFAULT 0 NOT NULL,
	"pin_blocked_until" timestamp with time zone,
	"limit_per_transaction_minor" numeric(38, 0),
	"limit_daily_minor" numeric(38, 0),
	"limit_monthly_minor" numeric(38, 0),
	"blocked_mccs" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"rule_per_transaction_max_minor" numeric(38, 0),
	"rule_ask_above_minor" numeric(38, 0),
	"shipping_address" jsonb,
	"idempotency_key" text,
	"request_hash" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cards_idempotency_key" UNIQUE("user_id","idempotency_key"),
	CONSTRAINT "cards_kind_known" CHECK ("cards"."kind" IN ('VIRTUAL', 'PHYSICAL')),
	CONSTRAINT "cards_currency_known" CHECK ("cards"."currency" IN ('USD', 'EUR', 'JPY', 'GBP')),
	CONSTRAINT "cards_status_known" CHECK ("cards"."status" IN ('UNDER_REVIEW', 'PROCESSING', 'SHIPPED', 'ACTIVE', 'FROZEN', 'CANCELLED', 'EXPIRED', 'RETURNED'))
);
--> statement-breakpoint
CREATE TABLE "sandbox_authorizations" (
	"id" text PRIMARY KEY NOT NULL,
	"token" text NOT NULL,
	"amount" text NOT NULL,
	"currency" text NOT NULL,
	"merchant_name" text NOT NULL,
	"mcc" text NOT NULL,
	"status" text NOT NULL,
	"decline_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_card_vault" (
	"token" text PRIMARY KEY NOT NULL,
	"network" text NOT NULL,
	"pan_sealed" text NOT NULL,
	"pan_hash" text NOT NULL,
	"cvv_sealed" text NOT NULL,
	"pin_sealed" text,
	"expiry_month" integer NOT NULL,
	"expiry_year" integer NOT NULL,
	"cardholder_name" text NOT NULL,
	"state" text NOT NULL,
	"activation_code_hash" text,
	"is_locked" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "card_limit_requests" ADD CONSTRAINT "card_limit_requests_card_id_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."cards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_topup_quotes" ADD CONSTRAINT "card_topup_quotes_card_id_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."cards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_transactions" ADD CONSTRAINT "card_transactions_card_id_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."cards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "card_limit_requests_card_idx" ON "card_limit_requests" USING btree ("card_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "card_limit_requests_one_pending" ON "card_limit_requests" USING btree ("card_id") WHERE "card_limit_requests"."state" = 'PENDING';--> statement-breakpoint
CREATE INDEX "card_topup_quotes_expiry_idx" ON "card_topup_quotes" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "card_transactions_card_idx" ON "card_transactions" USING btree ("card_id","id");--> statement-breakpoint
CREATE INDEX "card_transactions_card_time_idx" ON "card_transactions" USING btree ("card_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "card_transactions_auth_key" ON "card_transactions" USING btree ("processor_auth_id");--> statement-breakpoint
CREATE UNIQUE INDEX "card_transactions_refund_key" ON "card_transactions" USING btree ("processor_refund_id");--> statement-breakpoint
CREATE INDEX "card_transactions_pending_idx" ON "card_transactions" USING btree ("confirm_by") WHERE "card_transactions"."status" = 'PENDING_CONFIRMATION';--> statement-breakpoint
CREATE INDEX "cards_user_idx" ON "cards" USING btree ("user_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "cards_processor_token_key" ON "cards" USING btree ("processor_token");--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_card_vault_pan_hash_key" ON "sandbox_card_vault" USING btree ("pan_hash");