-- ledger_postings_refs_check: the references of ledger_postings, checked once per INSERT statement
-- (trigger ledger_postings_refs_check, AFTER INSERT … REFERENCING NEW TABLE … FOR EACH STATEMENT;
-- migration 0051). It replaced the two per-row foreign keys (entry_id → ledger_entries.id,
-- account_id → ledger_accounts.id), which ran one lookup with a row lock per posting: over half the
-- insert of a 50,000-posting fanout (docs/ledger.md "References").
-- Why this is as strong as the foreign keys: every inserted posting is checked in its own statement
-- against the rows its transaction sees (its own, or committed); ledger_entries and ledger_accounts
-- rows are never deleted, truncated or renumbered (ledger_refs_immutable refuses it), and a
-- posting's entry_id and account_id never change — so a reference that existed when its posting
-- was inserted exists for ever. A row inserted by the posting's own transaction disappears only
-- when that transaction rolls back, and the posting with it.
-- The trigger's WHEN skips it while the setting ledger.refs_proven is 'on': only ledger_post sets it,
-- by its SET clause, for the length of its own call, whose postings reference the entry it has just
-- inserted and accounts it has just read (migration 0068). Every other insert is checked.
-- One query, one probe of each primary key per new row whatever the statistics say: scalar
-- subqueries stay per-row subplans, never an anti-join or a hashed subplan that the planner may
-- build from a scan of the whole table (with ledger_entries analyzed at one row, the anti-join of
-- migration 0051 read every entry, materialized, for each posting of every session planned then;
-- plans are kept for the session). The SET clauses keep each probe an index probe on stale
-- statistics, as in the other ledger functions.
CREATE OR REPLACE FUNCTION ledger_postings_refs_check()
 RETURNS trigger
 LANGUAGE plpgsql
 SET enable_seqscan TO 'off'
 SET enable_hashjoin TO 'off'
 SET enable_mergejoin TO 'off'
AS $function$
DECLARE
  v_entry_id bigint;
  v_account_id bigint;
BEGIN
  SELECT p.entry_id, p.account_id INTO v_entry_id, v_account_id FROM ledger_postings_new p
  WHERE (SELECT e.id FROM ledger_entries e WHERE e.id = p.entry_id) IS NULL
     OR (SELECT a.id FROM ledger_accounts a WHERE a.id = p.account_id) IS NULL
  LIMIT 1;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  IF NOT EXISTS (SELECT FROM ledger_entries e WHERE e.id = v_entry_id) THEN
    RAISE EXCEPTION 'ledger_postings: entry % does not exist', v_entry_id
      USING ERRCODE = 'foreign_key_violation', CONSTRAINT = 'ledger_postings_entry_id_ref';
  END IF;
  RAISE EXCEPTION 'ledger_postings: account % does not exist', v_account_id
    USING ERRCODE = 'foreign_key_violation', CONSTRAINT = 'ledger_postings_account_id_ref';
END
$function$
;
