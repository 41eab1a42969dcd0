CREATE TABLE "ledger_accounts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"owner_kind" text NOT NULL,
	"owner_id" text NOT NULL,
	"type" text NOT NULL,
	"asset" text NOT NULL,
	"balance_minor" numeric(38, 0) DEFAULT 0 NOT NULL,
	"is_negative_allowed" boolean NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_accounts_owner_type_asset_key" UNIQUE("owner_kind","owner_id","type","asset"),
	CONSTRAINT "ledger_accounts_balance_non_negative" CHECK ("ledger_accounts"."is_negative_allowed" OR "ledger_accounts"."balance_minor" >= 0),
	CONSTRAINT "ledger_accounts_user_never_negative" CHECK ("ledger_accounts"."owner_kind" <> 'user' OR NOT "ledger_accounts"."is_negative_allowed")
);
--> statement-breakpoint
CREATE TABLE "ledger_entries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"reference" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"request_hash" text NOT NULL,
	"reverses_entry_id" bigint,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_entries_idempotency_key_key" UNIQUE("idempotency_key"),
	CONSTRAINT "ledger_entries_reverses_entry_id_key" UNIQUE("reverses_entry_id")
);
--> statement-breakpoint
CREATE TABLE "ledger_postings" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"entry_id" bigint NOT NULL,
	"account_id" bigint NOT NULL,
	"asset" text NOT NULL,
	"amount_minor" numeric(38, 0) NOT NULL,
	CONSTRAINT "ledger_postings_amount_non_zero" CHECK ("ledger_postings"."amount_minor" <> 0)
);
--> statement-breakpoint
ALTER TABLE "ledger_postings" ADD CONSTRAINT "ledger_postings_entry_id_ledger_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."ledger_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_postings" ADD CONSTRAINT "ledger_postings_account_id_ledger_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."ledger_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ledger_entries_reference_idx" ON "ledger_entries" USING btree ("reference");--> statement-breakpoint
CREATE INDEX "ledger_postings_entry_idx" ON "ledger_postings" USING btree ("entry_id");--> statement-breakpoint
CREATE INDEX "ledger_postings_account_idx" ON "ledger_postings" USING btree ("account_id");