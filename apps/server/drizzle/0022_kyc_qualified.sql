CREATE TABLE "kyc_qualified" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"status" integer DEFAULT 0 NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"submitted" jsonb,
	"submitted_at" timestamp with time zone,
	"expected_decision_at" timestamp with time zone,
	"decided_at" timestamp with time zone,
	"valid_until" timestamp with time zone,
	"reminder_sent_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "kyc_qualified_status_valid_idx" ON "kyc_qualified" USING btree ("status","valid_until");