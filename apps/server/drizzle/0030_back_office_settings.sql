CREATE TABLE "setting_changes" (
	"id" serial PRIMARY KEY NOT NULL,
	"target_kind" text NOT NULL,
	"target_key" text NOT NULL,
	"field" text NOT NULL,
	"before" text NOT NULL,
	"after" text NOT NULL,
	"status" text DEFAULT 'proposed' NOT NULL,
	"proposed_by_id" integer NOT NULL,
	"proposed_by_email" text NOT NULL,
	"proposed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_by_id" integer,
	"decided_by_email" text,
	"decided_at" timestamp with time zone,
	CONSTRAINT "setting_changes_status_known" CHECK ("setting_changes"."status" IN ('proposed', 'applied', 'rejected')),
	CONSTRAINT "setting_changes_kind_known" CHECK ("setting_changes"."target_kind" IN ('network', 'pair')),
	CONSTRAINT "setting_changes_four_eyes" CHECK ("setting_changes"."status" <> 'applied' OR "setting_changes"."decided_by_id" <> "setting_changes"."proposed_by_id")
);
--> statement-breakpoint
CREATE INDEX "setting_changes_status_idx" ON "setting_changes" USING btree ("status","id");