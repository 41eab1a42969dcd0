CREATE TABLE "user_notes" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"operator_id" integer NOT NULL,
	"operator_email" text NOT NULL,
	"text" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "frozen_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "frozen_reason" text;--> statement-breakpoint
CREATE INDEX "user_notes_user_created_idx" ON "user_notes" USING btree ("user_id","created_at");