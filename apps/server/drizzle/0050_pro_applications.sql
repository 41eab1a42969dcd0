CREATE TABLE "pro_applications" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"company_name" text NOT NULL,
	"registration_number" text NOT NULL,
	"expected_monthly_spend_minor" numeric(38, 0) NOT NULL,
	"currency" text NOT NULL,
	"card_count" integer NOT NULL,
	"contact_name" text NOT NULL,
	"contact_email" text NOT NULL,
	"contact_phone" text NOT NULL,
	"status" text DEFAULT 'SUBMITTED' NOT NULL,
	"reply" text,
	"decided_by" text,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pro_applications_status_known" CHECK ("pro_applications"."status" IN ('SUBMITTED', 'APPROVED', 'REJECTED')),
	CONSTRAINT "pro_applications_currency_known" CHECK ("pro_applications"."currency" IN ('USD', 'EUR', 'JPY', 'GBP')),
	CONSTRAINT "pro_applications_spend_positive" CHECK ("pro_applications"."expected_monthly_spend_minor" > 0),
	CONSTRAINT "pro_applications_card_count_positive" CHECK ("pro_applications"."card_count" > 0),
	CONSTRAINT "pro_applications_decision_complete" CHECK (("pro_applications"."status" = 'SUBMITTED') = ("pro_applications"."decided_at" IS NULL AND "pro_applications"."reply" IS NULL))
);
--> statement-breakpoint
ALTER TABLE "cards" ADD COLUMN "employee_name" text;--> statement-breakpoint
CREATE UNIQUE INDEX "pro_applications_user_open_key" ON "pro_applications" USING btree ("user_id") WHERE "pro_applications"."status" IN ('SUBMITTED', 'APPROVED');--> statement-breakpoint
CREATE INDEX "pro_applications_user_idx" ON "pro_applications" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "pro_applications_status_idx" ON "pro_applications" USING btree ("status","id");