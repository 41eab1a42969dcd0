-- The references of ledger_postings (entry_id → ledger_entries.id, account_id → ledger_accounts.id)
-- are checked once per INSERT statement instead of by two per-row foreign keys, which cost over half
-- of a 50,000-posting fanout's insert (the funds' monthly payout; docs/ledger.md "References").
-- ledger_entries and ledger_accounts rows can no longer be deleted, truncated or renumbered, and a
-- posting's references can no longer change, so a reference checked at insert holds for ever.
-- The functions' sources: src/modules/ledger/sql/ledger_postings_refs_check.sql, ledger_refs_immutable.sql.
ALTER TABLE "ledger_postings" DROP CONSTRAINT "ledger_postings_entry_id_ledger_entries_id_fk";
--> statement-breakpoint
ALTER TABLE "ledger_postings" DROP CONSTRAINT "ledger_postings_account_id_ledger_accounts_id_fk";
--> statement-breakpoint
-- ledger_postings_refs_check: the references of ledger_postings, checked once per INSERT statement
-- (trigger ledger_postings_refs_check, AFTER INSERT … REFERENCING NEW TABLE … FOR EACH STATEMENT;
-- migration 0051). It replaced the two per-row foreign keys (entry_id → ledger_entries.id,
-- account_id → ledger_accounts.id), which ran one lookup with a row lock per posting: over half the
-- insert of a 50,000-posting fanout (docs/ledger.md "References"). One anti-join per reference over
-- the statement's new rows, by the primary keys' index (the SET clauses hold the plan to index
-- probes, as the other ledger functions: a hash join would read every account once per posting).
-- Why this is as strong as the foreign keys: every inserted posting is checked in its own statement
-- against the rows its transaction sees (its own, or committed); ledger_entries and ledger_accounts
-- rows are never deleted, truncated or renumbered (ledger_refs_immutable refuses it), and a
-- posting's entry_id and account_id never change — so a reference that existed when its posting
-- was inserted exists for ever. A row inserted by the posting's own transaction disappears only
-- when that transaction rolls back, and the posting with it.
CREATE OR REPLACE FUNCTION ledger_postings_refs_check()
 RETURNS trigger
 LANGUAGE plpgsql
 SET enable_seqscan TO 'off'
 SET enable_hashjoin TO 'off'
 SET enable_mergejoin TO 'off'
AS $function$
DECLARE
  v_missing bigint;
BEGIN
  SELECT p.entry_id INTO v_missing FROM ledger_postings_new p
  WHERE NOT EXISTS (SELECT 1 FROM ledger_entries e WHERE e.id = p.entry_id) LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'ledger_postings: entry % does not exist', v_missing
      USING ERRCODE = 'foreign_key_violation', CONSTRAINT = 'ledger_postings_entry_id_ref';
  END IF;
  SELECT p.account_id INTO v_missing FROM ledger_postings_new p
  WHERE NOT EXISTS (SELECT 1 FROM ledger_accounts a WHERE a.id = p.account_id) LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'ledger_postings: account % does not exist', v_missing
      USING ERRCODE = 'foreign_key_violation', CONSTRAINT = 'ledger_postings_account_id_ref';
  END IF;
  RETURN NULL;
END
$function$
;
--> statement-breakpoint
-- ledger_refs_immutable: refuses deleting or truncating ledger_entries and ledger_accounts, changing
-- their ids, and changing a posting's entry_id or account_id (BEFORE triggers, migration 0051). This
-- is what keeps the statement-level reference check of ledger_postings (ledger_postings_refs_check)
-- as strong as the foreign keys it replaced: a referenced row, once there, stays. The ledger never
-- deletes (corrections are new entries, ARCHITECTURE §4); before 0051 the foreign keys refused
-- deleting a referenced row, and nothing deleted an unreferenced one.
CREATE OR REPLACE FUNCTION ledger_refs_immutable()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  RAISE EXCEPTION '%: % refused: ledger rows are never deleted and their references never change', TG_TABLE_NAME, TG_OP
    USING ERRCODE = 'restrict_violation';
END
$function$
;
--> statement-breakpoint
-- Existing postings were guarded by the foreign keys until now; the check below proves it once more.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM ledger_postings p WHERE NOT EXISTS (SELECT 1 FROM ledger_entries e WHERE e.id = p.entry_id))
     OR EXISTS (SELECT 1 FROM ledger_postings p WHERE NOT EXISTS (SELECT 1 FROM ledger_accounts a WHERE a.id = p.account_id)) THEN
    RAISE EXCEPTION 'ledger_postings: a posting references a missing entry or account';
  END IF;
END
$$;
--> statement-breakpoint
CREATE TRIGGER ledger_postings_refs_check AFTER INSERT ON ledger_postings
  REFERENCING NEW TABLE AS ledger_postings_new FOR EACH STATEMENT EXECUTE FUNCTION ledger_postings_refs_check();
--> statement-breakpoint
CREATE TRIGGER ledger_postings_refs_fixed BEFORE UPDATE OF entry_id, account_id ON ledger_postings
  FOR EACH ROW EXECUTE FUNCTION ledger_refs_immutable();
--> statement-breakpoint
CREATE TRIGGER ledger_entries_kept BEFORE DELETE OR UPDATE OF id ON ledger_entries
  FOR EACH ROW EXECUTE FUNCTION ledger_refs_immutable();
--> statement-breakpoint
CREATE TRIGGER ledger_entries_not_truncated BEFORE TRUNCATE ON ledger_entries
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_refs_immutable();
--> statement-breakpoint
CREATE TRIGGER ledger_accounts_kept BEFORE DELETE OR UPDATE OF id ON ledger_accounts
  FOR EACH ROW EXECUTE FUNCTION ledger_refs_immutable();
--> statement-breakpoint
CREATE TRIGGER ledger_accounts_not_truncated BEFORE TRUNCATE ON ledger_accounts
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_refs_immutable();
