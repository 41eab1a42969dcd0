CREATE TABLE "chain_blocks" (
	"chain_id" integer NOT NULL,
	"block_number" bigint NOT NULL,
	"block_hash" text NOT NULL,
	"parent_hash" text NOT NULL,
	CONSTRAINT "chain_blocks_chain_id_block_number_pk" PRIMARY KEY("chain_id","block_number")
);
--> statement-breakpoint
CREATE TABLE "chain_cursors" (
	"chain_id" integer PRIMARY KEY NOT NULL,
	"block_number" bigint NOT NULL,
	"block_hash" text NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chain_deposits" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"chain_id" integer NOT NULL,
	"tx_hash" text NOT NULL,
	"log_index" integer NOT NULL,
	"block_number" bigint NOT NULL,
	"block_hash" text NOT NULL,
	"token_address" text,
	"coin_code" text,
	"network" text NOT NULL,
	"to_address" text NOT NULL,
	"from_address" text NOT NULL,
	"user_id" uuid NOT NULL,
	"amount_raw" numeric(78, 0) NOT NULL,
	"amount_minor" numeric(38, 0),
	"confirmations_required" integer NOT NULL,
	"status" text NOT NULL,
	"reason" text,
	"deposit_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chain_deposits_chain_tx_log_key" UNIQUE("chain_id","tx_hash","log_index"),
	CONSTRAINT "chain_deposits_status_known" CHECK ("chain_deposits"."status" IN ('PENDING', 'CREDITED', 'REVIEW', 'ORPHANED', 'REORGED_AFTER_CREDIT'))
);
--> statement-breakpoint
CREATE TABLE "chain_reorg_alarms" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"chain_id" integer NOT NULL,
	"chain_deposit_id" bigint NOT NULL,
	"deposit_id" bigint NOT NULL,
	"user_id" uuid NOT NULL,
	"coin_code" text NOT NULL,
	"amount_minor" numeric(38, 0) NOT NULL,
	"held_minor" numeric(38, 0) NOT NULL,
	"hold_entry_id" bigint,
	"orphaned_block_number" bigint NOT NULL,
	"orphaned_block_hash" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chain_reorg_alarms_chain_deposit_key" UNIQUE("chain_deposit_id"),
	CONSTRAINT "chain_reorg_alarms_status_known" CHECK ("chain_reorg_alarms"."status" IN ('open', 'resolved'))
);
--> statement-breakpoint
ALTER TABLE "deposits" ADD COLUMN "confirmations_required" integer;--> statement-breakpoint
CREATE INDEX "chain_deposits_status_block_idx" ON "chain_deposits" USING btree ("chain_id","status","block_number");