ALTER TABLE "idempotency_keys" ADD COLUMN "instance_id" integer;--> statement-breakpoint
CREATE INDEX "idempotency_keys_completed_at_idx" ON "idempotency_keys" USING btree ("completed_at");