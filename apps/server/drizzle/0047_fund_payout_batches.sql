CREATE TABLE "fund_payout_batches" (
	"month" text NOT NULL,
	"first_holding_id" bigint NOT NULL,
	"end_holding_id" bigint NOT NULL,
	"holding_count" integer NOT NULL,
	"total_minor" numeric(38, 0) NOT NULL,
	"entry_id" bigint NOT NULL,
	"paid_at" timestamp with time zone NOT NULL,
	CONSTRAINT "fund_payout_batches_month_first_holding_id_end_holding_id_pk" PRIMARY KEY("month","first_holding_id","end_holding_id")
);
--> statement-breakpoint
ALTER TABLE "fund_holdings" ADD COLUMN "last_payout_minor" numeric(38, 0) DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Every posting updates its account's balance: room on each page lets PostgreSQL update in place (HOT)
-- without touching the two indexes (bench:accrual's payout, docs/funds.md). Pages written before this
-- keep their fill until rewritten (VACUUM FULL / pg_repack in a maintenance window).
ALTER TABLE "ledger_accounts" SET (fillfactor = 50);
