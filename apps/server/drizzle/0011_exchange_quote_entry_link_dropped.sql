-- The swap's ledger entry is found by its idempotency key `swap:<quoteId>` (unique); the link column
-- cost one UPDATE per swap batch (docs/exchange.md).
ALTER TABLE "exchange_quotes" DROP COLUMN "entry_id";