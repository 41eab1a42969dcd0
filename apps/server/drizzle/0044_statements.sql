CREATE TABLE "statement_generations" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"from_day" text NOT NULL,
	"to_day" text NOT NULL,
	"status" text NOT NULL,
	"progress_percent" integer DEFAULT 0 NOT NULL,
	"content" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "statement_generations_one_running_key" ON "statement_generations" USING btree ("user_id") WHERE "statement_generations"."status" = 'RUNNING';--> statement-breakpoint
CREATE INDEX "statement_generations_user_idx" ON "statement_generations" USING btree ("user_id","created_at");