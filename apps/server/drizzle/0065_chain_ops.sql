ALTER TABLE "chain_deposits" DROP CONSTRAINT "chain_deposits_status_known";--> statement-breakpoint
ALTER TABLE "chain_reorg_alarms" DROP CONSTRAINT "chain_reorg_alarms_status_known";--> statement-breakpoint
ALTER TABLE "chain_deposits" ADD COLUMN "review_approved_by" text;--> statement-breakpoint
ALTER TABLE "chain_deposits" ADD COLUMN "review_approved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "chain_deposits" ADD COLUMN "reviewed_by" text;--> statement-breakpoint
ALTER TABLE "chain_deposits" ADD COLUMN "reviewed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "chain_deposits" ADD COLUMN "review_note" text;--> statement-breakpoint
ALTER TABLE "chain_reorg_alarms" ADD COLUMN "acknowledged_by" text;--> statement-breakpoint
ALTER TABLE "chain_reorg_alarms" ADD COLUMN "acknowledged_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "chain_reorg_alarms" ADD COLUMN "resolved_by" text;--> statement-breakpoint
ALTER TABLE "chain_reorg_alarms" ADD COLUMN "resolved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "chain_reorg_alarms" ADD COLUMN "resolution" text;--> statement-breakpoint
ALTER TABLE "chain_reorg_alarms" ADD COLUMN "note" text;--> statement-breakpoint
ALTER TABLE "chain_reorg_alarms" ADD COLUMN "release_entry_id" bigint;--> statement-breakpoint
ALTER TABLE "chain_deposits" ADD CONSTRAINT "chain_deposits_status_known" CHECK ("chain_deposits"."status" IN ('PENDING', 'CREDITED', 'REVIEW', 'ORPHANED', 'REORGED_AFTER_CREDIT', 'REJECTED'));--> statement-breakpoint
ALTER TABLE "chain_reorg_alarms" ADD CONSTRAINT "chain_reorg_alarms_status_known" CHECK ("chain_reorg_alarms"."status" IN ('open', 'acknowledged', 'resolved'));