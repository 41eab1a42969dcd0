CREATE TABLE "screening_alerts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"network" text NOT NULL,
	"address" text NOT NULL,
	"list_name" text NOT NULL,
	"reference_id" text,
	"status" text DEFAULT 'open' NOT NULL,
	"decided_by" text,
	"decided_at" timestamp with time zone,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "screening_alerts_kind_reference_key" UNIQUE("kind","reference_id"),
	CONSTRAINT "screening_alerts_kind_known" CHECK ("screening_alerts"."kind" IN ('withdrawal', 'address_book', 'deposit')),
	CONSTRAINT "screening_alerts_status_known" CHECK ("screening_alerts"."status" IN ('open', 'released', 'confirmed'))
);
--> statement-breakpoint
CREATE TABLE "withdrawal_limit_changes" (
	"id" serial PRIMARY KEY NOT NULL,
	"kyc_level" integer NOT NULL,
	"operator_email" text NOT NULL,
	"old_usd_per_24h" numeric(38, 2),
	"old_usd_per_month" numeric(38, 2),
	"new_usd_per_24h" numeric(38, 2) NOT NULL,
	"new_usd_per_month" numeric(38, 2) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "withdrawal_limits" (
	"kyc_level" integer PRIMARY KEY NOT NULL,
	"usd_per_24h" numeric(38, 2) NOT NULL,
	"usd_per_month" numeric(38, 2) NOT NULL,
	"updated_at" timestamp with time zone,
	"updated_by" text,
	CONSTRAINT "withdrawal_limits_positive" CHECK ("withdrawal_limits"."usd_per_24h" > 0 AND "withdrawal_limits"."usd_per_month" > 0)
);
--> statement-breakpoint
ALTER TABLE "deposits" ADD COLUMN "from_address" text;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "usd_value" numeric(38, 2);--> statement-breakpoint
CREATE INDEX "screening_alerts_status_created_idx" ON "screening_alerts" USING btree ("status","created_at");