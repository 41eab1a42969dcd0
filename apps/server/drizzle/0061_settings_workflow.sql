-- One table of proposed settings changes for every module (docs/decisions/0015-settings-workflow.md).
-- `kind` names what before/after hold; the network and pair rows get `<target_kind>.<field>` and
-- their text values become one-field objects (`{"withdrawFee": "1.5"}`).
ALTER TABLE "setting_changes" DROP CONSTRAINT "setting_changes_kind_known";--> statement-breakpoint
ALTER TABLE "setting_changes" ALTER COLUMN "target_kind" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "setting_changes" ALTER COLUMN "field" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "setting_changes" ALTER COLUMN "before" SET DATA TYPE jsonb USING jsonb_build_object("field", "before");--> statement-breakpoint
ALTER TABLE "setting_changes" ALTER COLUMN "after" SET DATA TYPE jsonb USING jsonb_build_object("field", "after");--> statement-breakpoint
ALTER TABLE "setting_changes" ADD COLUMN "kind" text;--> statement-breakpoint
UPDATE "setting_changes" SET "kind" = "target_kind" || '.' || "field";--> statement-breakpoint
ALTER TABLE "setting_changes" ALTER COLUMN "kind" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "setting_changes" ADD COLUMN "migrated_from" text;--> statement-breakpoint
CREATE INDEX "setting_changes_kind_idx" ON "setting_changes" USING btree ("kind","id");--> statement-breakpoint
CREATE UNIQUE INDEX "setting_changes_migrated_from_key" ON "setting_changes" USING btree ("migrated_from");--> statement-breakpoint
-- Every loan and card proposal, pending and decided alike, in the order proposed; the old row is named.
INSERT INTO "setting_changes" ("kind", "target_key", "before", "after", "status", "proposed_by_id", "proposed_by_email", "proposed_at", "decided_by_id", "decided_by_email", "decided_at", "migrated_from")
SELECT "kind", '', "before", "after", "status", "proposed_by_id", "proposed_by_email", "proposed_at", "decided_by_id", "decided_by_email", "decided_at", "migrated_from"
FROM (
  SELECT 'loans.riskLevels' AS "kind", "before", "after", "status", "proposed_by_id", "proposed_by_email", "proposed_at", "decided_by_id", "decided_by_email", "decided_at", 'loan_setting_changes:' || "id" AS "migrated_from", 0 AS "source", "id"
  FROM "loan_setting_changes"
  UNION ALL
  SELECT 'cards.' || "kind", "before", "after", "status", "proposed_by_id", "proposed_by_email", "proposed_at", "decided_by_id", "decided_by_email", "decided_at", 'card_setting_changes:' || "id", 1, "id"
  FROM "card_setting_changes"
) AS "moved"
ORDER BY "proposed_at", "source", "id";
