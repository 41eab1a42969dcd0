CREATE TABLE "manual_adjustments" (
	"id" serial PRIMARY KEY NOT NULL,
	"status" text DEFAULT 'proposed' NOT NULL,
	"reason" text NOT NULL,
	"postings" jsonb NOT NULL,
	"proposed_by_id" integer NOT NULL,
	"proposed_by_email" text NOT NULL,
	"proposed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_by_id" integer,
	"decided_by_email" text,
	"decided_at" timestamp with time zone,
	"decision_note" text,
	"entry_id" bigint,
	CONSTRAINT "manual_adjustments_status_known" CHECK ("manual_adjustments"."status" IN ('proposed', 'posted', 'rejected')),
	CONSTRAINT "manual_adjustments_four_eyes" CHECK ("manual_adjustments"."status" <> 'posted' OR "manual_adjustments"."decided_by_id" <> "manual_adjustments"."proposed_by_id")
);
--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "approved_by" text;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "approved_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "manual_adjustments_status_idx" ON "manual_adjustments" USING btree ("status","id");