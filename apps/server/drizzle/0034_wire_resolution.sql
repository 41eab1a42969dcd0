ALTER TABLE "fund_wires_in" ADD COLUMN "resolved_by" text;--> statement-breakpoint
ALTER TABLE "fund_wires_in" ADD COLUMN "resolved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "fund_wires_in" ADD COLUMN "resolution_note" text;