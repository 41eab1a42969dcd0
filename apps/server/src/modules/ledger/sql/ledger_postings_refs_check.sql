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
