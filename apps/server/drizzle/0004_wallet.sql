CREATE TABLE "address_book" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"network" text NOT NULL,
	"address" text NOT NULL,
	"label" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"usable_at" timestamp with time zone NOT NULL,
	CONSTRAINT "address_book_user_network_address_key" UNIQUE("user_id","network","address")
);
--> statement-breakpoint
CREATE TABLE "custody_deliveries" (
	"delivery_id" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "deposit_addresses" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"chain" text NOT NULL,
	"derivation_index" integer NOT NULL,
	"address" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "deposit_addresses_user_chain_key" UNIQUE("user_id","chain"),
	CONSTRAINT "deposit_addresses_chain_index_key" UNIQUE("chain","derivation_index"),
	CONSTRAINT "deposit_addresses_address_key" UNIQUE("address")
);
--> statement-breakpoint
CREATE TABLE "deposits" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"coin_code" text NOT NULL,
	"network" text NOT NULL,
	"address" text NOT NULL,
	"tx_hash" text NOT NULL,
	"output_index" integer NOT NULL,
	"amount_minor" numeric(38, 0) NOT NULL,
	"confirmations" integer NOT NULL,
	"type" text NOT NULL,
	"status" text NOT NULL,
	"entry_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"credited_at" timestamp with time zone,
	CONSTRAINT "deposits_network_tx_output_key" UNIQUE("network","tx_hash","output_index"),
	CONSTRAINT "deposits_amount_positive" CHECK ("deposits"."amount_minor" > 0)
);
--> statement-breakpoint
CREATE TABLE "hd_index_counters" (
	"chain" text PRIMARY KEY NOT NULL,
	"next_index" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "operators" (
	"id" serial PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"role" text NOT NULL,
	"token_hash" text NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "operators_email_unique" UNIQUE("email"),
	CONSTRAINT "operators_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "withdrawals" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"coin_code" text NOT NULL,
	"network" text NOT NULL,
	"address" text NOT NULL,
	"amount_minor" numeric(38, 0) NOT NULL,
	"fee_minor" numeric(38, 0) NOT NULL,
	"type" text NOT NULL,
	"status" integer NOT NULL,
	"recipient_user_id" uuid,
	"tx_hash" text,
	"failure_reason" text,
	"idempotency_key" text,
	"request_hash" text NOT NULL,
	"operator_email" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "withdrawals_user_idempotency_key" UNIQUE("user_id","idempotency_key"),
	CONSTRAINT "withdrawals_amount_positive" CHECK ("withdrawals"."amount_minor" > 0 AND "withdrawals"."fee_minor" >= 0),
	CONSTRAINT "withdrawals_status_known" CHECK ("withdrawals"."status" BETWEEN 0 AND 4)
);
--> statement-breakpoint
CREATE INDEX "deposits_user_created_idx" ON "deposits" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "withdrawals_user_created_idx" ON "withdrawals" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "withdrawals_status_idx" ON "withdrawals" USING btree ("status");