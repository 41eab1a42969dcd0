CREATE TABLE "kyc_aml_answers" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"answers" jsonb NOT NULL,
	"points" integer NOT NULL,
	"level" text NOT NULL,
	"matched_rules" jsonb NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "kyc_investor" (
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
CREATE TABLE "kyc_tax_forms" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"form" text NOT NULL,
	"data" jsonb NOT NULL,
	"superseded_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "kyc_aml_answers_user_idx" ON "kyc_aml_answers" USING btree ("user_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "kyc_investor_status_submitted_idx" ON "kyc_investor" USING btree ("status","submitted_at");--> statement-breakpoint
CREATE INDEX "kyc_tax_forms_user_idx" ON "kyc_tax_forms" USING btree ("user_id","id" DESC NULLS LAST);