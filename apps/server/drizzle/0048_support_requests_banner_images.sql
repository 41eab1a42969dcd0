CREATE TABLE "banner_images" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"storage_key" text NOT NULL,
	"file_name" text NOT NULL,
	"mime_type" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"sha256" text NOT NULL,
	"uploaded_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "banner_images_storage_key_unique" UNIQUE("storage_key")
);
--> statement-breakpoint
CREATE TABLE "support_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"reason" text NOT NULL,
	"reply" text,
	"replied_by" text,
	"replied_at" timestamp with time zone,
	"decided_by" text,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "support_requests_status_known" CHECK ("support_requests"."status" IN ('PENDING', 'IN_PROGRESS', 'DONE', 'REJECTED')),
	CONSTRAINT "support_requests_kind_known" CHECK ("support_requests"."kind" IN ('ACCOUNT_DELETION')),
	CONSTRAINT "support_requests_decided_has_decider" CHECK ("support_requests"."status" NOT IN ('DONE', 'REJECTED') OR "support_requests"."decided_by" IS NOT NULL)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "support_requests_one_open_idx" ON "support_requests" USING btree ("user_id","kind") WHERE "support_requests"."status" IN ('PENDING', 'IN_PROGRESS');--> statement-breakpoint
CREATE INDEX "support_requests_user_idx" ON "support_requests" USING btree ("user_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "support_requests_status_idx" ON "support_requests" USING btree ("status","created_at");