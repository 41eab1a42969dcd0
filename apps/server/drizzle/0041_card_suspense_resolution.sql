ALTER TABLE "card_suspense_items" ADD COLUMN "resolution" text;--> statement-breakpoint
ALTER TABLE "card_suspense_items" ADD COLUMN "resolved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "card_suspense_items" ADD COLUMN "resolution_entry_id" bigint;