CREATE TABLE "loan_setting_changes" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "loan_setting_changes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"before" jsonb NOT NULL,
	"after" jsonb NOT NULL,
	"status" text DEFAULT 'proposed' NOT NULL,
	"proposed_by_id" integer NOT NULL,
	"proposed_by_email" text NOT NULL,
	"proposed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_by_id" integer,
	"decided_by_email" text,
	"decided_at" timestamp with time zone,
	CONSTRAINT "loan_setting_changes_status_known" CHECK ("loan_setting_changes"."status" IN ('proposed', 'applied', 'rejected')),
	CONSTRAINT "loan_setting_changes_four_eyes" CHECK ("loan_setting_changes"."status" <> 'applied' OR "loan_setting_changes"."decided_by_id" <> "loan_setting_changes"."proposed_by_id")
);
