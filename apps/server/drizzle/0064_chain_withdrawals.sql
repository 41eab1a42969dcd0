CREATE TABLE "chain_hot_wallet_alerts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"hot_wallet_id" bigint NOT NULL,
	"coin_code" text NOT NULL,
	"kind" text NOT NULL,
	"balance_minor" numeric(38, 0) NOT NULL,
	"limit_minor" numeric(38, 0) NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone,
	CONSTRAINT "chain_hot_wallet_alerts_kind_known" CHECK ("chain_hot_wallet_alerts"."kind" IN ('low', 'excess')),
	CONSTRAINT "chain_hot_wallet_alerts_status_known" CHECK ("chain_hot_wallet_alerts"."status" IN ('open', 'resolved'))
);
--> statement-breakpoint
CREATE TABLE "chain_hot_wallets" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"chain_id" integer NOT NULL,
	"address" text NOT NULL,
	"key_sealed" text,
	"next_nonce" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chain_hot_wallets_chain_key" UNIQUE("chain_id")
);
--> statement-breakpoint
CREATE TABLE "chain_withdrawal_txs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"chain_withdrawal_id" bigint NOT NULL,
	"tx_hash" text NOT NULL,
	"raw_tx" text NOT NULL,
	"max_fee_per_gas_wei" numeric(78, 0) NOT NULL,
	"max_priority_fee_per_gas_wei" numeric(78, 0) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chain_withdrawal_txs_hash_key" UNIQUE("tx_hash")
);
--> statement-breakpoint
CREATE TABLE "chain_withdrawals" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"withdrawal_id" bigint NOT NULL,
	"user_id" uuid NOT NULL,
	"chain_id" integer NOT NULL,
	"hot_wallet_id" bigint NOT NULL,
	"nonce" bigint NOT NULL,
	"coin_code" text NOT NULL,
	"token_address" text,
	"to_address" text NOT NULL,
	"amount_raw" numeric(78, 0) NOT NULL,
	"gas_limit" bigint NOT NULL,
	"max_fee_per_gas_wei" numeric(78, 0) NOT NULL,
	"max_priority_fee_per_gas_wei" numeric(78, 0) NOT NULL,
	"tx_hash" text,
	"status" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"broadcast_at" timestamp with time zone,
	"mined_block" bigint,
	"failure_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone,
	CONSTRAINT "chain_withdrawals_withdrawal_key" UNIQUE("withdrawal_id"),
	CONSTRAINT "chain_withdrawals_wallet_nonce_key" UNIQUE("hot_wallet_id","nonce"),
	CONSTRAINT "chain_withdrawals_status_known" CHECK ("chain_withdrawals"."status" IN ('SIGNED', 'BROADCAST', 'MINED', 'CONFIRMED', 'REVERTED'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "chain_hot_wallet_alerts_open_key" ON "chain_hot_wallet_alerts" USING btree ("hot_wallet_id","coin_code","kind") WHERE "chain_hot_wallet_alerts"."status" = 'open';--> statement-breakpoint
CREATE INDEX "chain_withdrawal_txs_withdrawal_idx" ON "chain_withdrawal_txs" USING btree ("chain_withdrawal_id");--> statement-breakpoint
CREATE INDEX "chain_withdrawals_status_idx" ON "chain_withdrawals" USING btree ("chain_id","status");