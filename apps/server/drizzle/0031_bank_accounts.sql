CREATE TABLE "bank_accounts" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"account_holder" text NOT NULL,
	"bank_name" text NOT NULL,
	"swift_bic" text NOT NULL,
	"iban" text,
	"account_number" text NOT NULL,
	"currency" text DEFAULT 'USD' NOT NULL,
	"country" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "bank_accounts_currency_usd" CHECK ("bank_accounts"."currency" = 'USD')
);
--> statement-breakpoint
CREATE UNIQUE INDEX "bank_accounts_user_number_live_key" ON "bank_accounts" USING btree ("user_id","account_number") WHERE "bank_accounts"."deleted_at" IS NULL;--> statement-breakpoint
CREATE INDEX "bank_accounts_user_idx" ON "bank_accounts" USING btree ("user_id","id");