-- The swap's ledger entry is found by its idempotency key `swap:<quoteId>` (unique); the link column
-- cost one UPDATE per swap batch (docs/exchange.md). IF EXISTS: this migration's journal time first
-- sorted before 0010's, so a database migrated through 0010 skipped it; it now runs after 0010, and
-- again (harmlessly) where it had already run.
ALTER TABLE "exchange_quotes" DROP COLUMN IF EXISTS "entry_id";
