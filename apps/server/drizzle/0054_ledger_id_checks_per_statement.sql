-- ledger_accounts: the refusal of changing an account's id moves from a row trigger to a statement
-- trigger (the function, ledger_refs_immutable, is unchanged). A BEFORE UPDATE row trigger — even
-- one limited to UPDATE OF id that never fires for a balance update — makes PostgreSQL fetch and
-- lock each updated row before updating it: one more WAL record (Heap/LOCK) and a tuple lock per
-- balance change. The funds' monthly payout updates up to a million balances in fanout statements
-- that lock nothing beforehand (docs/funds.md "Benchmark", docs/ledger.md "References"). A
-- statement trigger BEFORE UPDATE OF id refuses every UPDATE (or INSERT … ON CONFLICT DO UPDATE)
-- whose SET list names id, whatever rows it matches — a stricter rule than the row trigger, at no
-- cost per row. Deletes stay refused per row.
DROP TRIGGER "ledger_accounts_kept" ON "ledger_accounts";
--> statement-breakpoint
CREATE TRIGGER ledger_accounts_kept BEFORE DELETE ON ledger_accounts
  FOR EACH ROW EXECUTE FUNCTION ledger_refs_immutable();
--> statement-breakpoint
CREATE TRIGGER ledger_accounts_id_fixed BEFORE UPDATE OF id ON ledger_accounts
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_refs_immutable();
