-- ledger_entries_reverses_entry_id_key becomes a partial unique index (reverses_entry_id IS NOT NULL),
-- same name (docs/ledger.md "Benchmark", migration 0071). Only reversals have a value; the NULL of
-- every other entry was an index entry written with each posting (one WAL record of 64 bytes and a
-- descent of the index) that no query looks up. At most one reversal per entry, as before; the
-- ALTER TABLE's lock is held until the new index exists (the migration is one transaction).
ALTER TABLE "ledger_entries" DROP CONSTRAINT "ledger_entries_reverses_entry_id_key";--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_entries_reverses_entry_id_key" ON "ledger_entries" USING btree ("reverses_entry_id") WHERE "ledger_entries"."reverses_entry_id" IS NOT NULL;

