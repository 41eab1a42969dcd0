-- ledger_postings: the primary key becomes (entry_id, id) and replaces both the primary key on id
-- and ledger_postings_entry_idx. Every posting inserted wrote three index entries (id, entry_id,
-- account_id); now two. The new key serves what both served: an entry's postings in id order
-- (entry_id = … ORDER BY id, the ledger's reads) and the row's identity. id still comes from its
-- sequence, so it stays unique by construction; nothing looks a posting up by id alone. Rebuilds one
-- index over the table under an exclusive lock: on a large ledger, a maintenance window
-- (docs/ledger.md "Indexes of ledger_postings").
ALTER TABLE "ledger_postings" DROP CONSTRAINT "ledger_postings_pkey";--> statement-breakpoint
ALTER TABLE "ledger_postings" ADD CONSTRAINT "ledger_postings_pkey" PRIMARY KEY("entry_id","id");--> statement-breakpoint
DROP INDEX "ledger_postings_entry_idx";
