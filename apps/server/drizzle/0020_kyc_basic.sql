CREATE TABLE "kyc_basic" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"status" integer DEFAULT 0 NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"draft" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"submitted" jsonb,
	"submitted_at" timestamp with time zone,
	"expected_decision_at" timestamp with time zone,
	"decided_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "kyc_decisions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"subject" text NOT NULL,
	"decision" text NOT NULL,
	"operator_email" text NOT NULL,
	"reason" text,
	"submission" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "kyc_documents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"storage_key" text NOT NULL,
	"file_name" text NOT NULL,
	"mime_type" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"sha256" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "kyc_documents_storage_key_unique" UNIQUE("storage_key")
);
--> statement-breakpoint
CREATE INDEX "kyc_basic_status_submitted_idx" ON "kyc_basic" USING btree ("status","submitted_at");--> statement-breakpoint
CREATE INDEX "kyc_decisions_user_idx" ON "kyc_decisions" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "kyc_documents_user_kind_idx" ON "kyc_documents" USING btree ("user_id","kind","created_at" DESC NULLS LAST);