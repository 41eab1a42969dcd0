CREATE TABLE "kyc_residence_changes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"status" integer NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"previous_residence" text NOT NULL,
	"submitted" jsonb NOT NULL,
	"submitted_at" timestamp with time zone NOT NULL,
	"expected_decision_at" timestamp with time zone,
	"decided_at" timestamp with time zone,
	"tax_form_due_at" timestamp with time zone,
	"tax_form_lapsed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "terms_changes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"title_en" text NOT NULL,
	"title_zh" text NOT NULL,
	"body_en" text NOT NULL,
	"body_zh" text NOT NULL,
	"effective_on" date NOT NULL,
	"announce_on" date NOT NULL,
	"announced_at" timestamp with time zone,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "kyc_residence_changes_status_submitted_idx" ON "kyc_residence_changes" USING btree ("status","submitted_at");--> statement-breakpoint
CREATE INDEX "kyc_residence_changes_user_idx" ON "kyc_residence_changes" USING btree ("user_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "kyc_residence_changes_tax_due_idx" ON "kyc_residence_changes" USING btree ("tax_form_due_at");--> statement-breakpoint
CREATE UNIQUE INDEX "kyc_residence_changes_one_open_idx" ON "kyc_residence_changes" USING btree ("user_id") WHERE "kyc_residence_changes"."status" = 2;--> statement-breakpoint
CREATE INDEX "terms_changes_due_idx" ON "terms_changes" USING btree ("announce_on") WHERE "terms_changes"."announced_at" IS NULL;