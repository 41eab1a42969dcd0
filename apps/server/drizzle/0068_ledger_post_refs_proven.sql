-- ledger_post writes its postings without the statement-level reference check and before it locks
-- any balance row (docs/ledger.md "References" and "Posting an entry"):
--   * the trigger ledger_postings_refs_check gets WHEN (ledger.refs_proven is not 'on'); ledger_post
--     turns that setting on by a SET clause for the length of its own call, whose postings reference
--     the entry it has just inserted and accounts it has just read. Every other insert is checked.
--   * ledger_postings_refs_check checks both references in one query whose probes cannot become a
--     scan of the whole table on stale statistics.
--   * ledger_post inserts the postings before its balance updates, so a balance row's lock is held
--     for less time.
-- Pasted here: ledger_post.sql and ledger_postings_refs_check.sql.
-- ledger_post: post one balanced journal entry in one statement (modules/ledger/ledger.service.ts
-- `postEntry`, docs/ledger.md "Posting an entry"). Why a function: PL/pgSQL keeps the plans of its
-- statements for the session, so a posting costs one short round trip, and one statement is
-- atomic on its own, so outside a transaction no BEGIN/COMMIT is needed. Steps:
--   1. claim the idempotency key (INSERT … ON CONFLICT DO NOTHING); taken → o_status 'replay'
--      (the caller compares request hashes);
--   2. find every account of the entry (one probe of the owner/type/asset key each; an account's
--      id never changes, so no lock is needed to read it), creating the missing ones first time
--      round;
--   3. write the postings. Their references are proven by steps 1 and 2 (the entry was inserted by
--      this call, every account id was read from a row this transaction sees, and entries and
--      accounts are never deleted or renumbered), so the statement-level reference check of
--      ledger_postings skips this insert: its trigger fires only when the setting
--      ledger.refs_proven is not 'on', and the function's SET clause turns it on for the length of
--      this call alone (docs/ledger.md "References"). Every other writer is still checked;
--   4. in ascending id order, apply each account's net change with one conditional UPDATE of that
--      row, `balance = balance + d WHERE balance + d >= 0 OR is_negative_allowed`: the UPDATE is the
--      row's lock, its check and its change in one step. Taking the rows in id order is the lock
--      order of ledger_post_batch and of the previous SELECT … ORDER BY id FOR UPDATE, so no two
--      postings wait on each other in a cycle. An account whose net change is zero is neither
--      changed nor locked. A refused update raises SQLSTATE ML001 (as ledger_apply_deltas), which
--      rolls the whole statement back (postings included) and the caller answers
--      INSUFFICIENT_BALANCE.
-- Why the postings before the balances (migration 0068): a balance row stays locked from its UPDATE
-- to the commit, so everything written after the first UPDATE lengthens the time other postings
-- to that account wait; the postings' insert needs no lock and goes first.
-- Inputs: the entry's fields; per account (distinct): owner kind, owner id, type, asset and net
-- change (p_deltas); per posting: account ordinal (1-based) and amount. p_changed_count is not read
-- and stays because the argument list is the function's identity: changing it would create a
-- second function.
-- Returns one row: entry id and time ('ok'), or status 'replay'; and the account ids by ordinal.
--
-- SET clauses: every statement joins the parameter arrays (a handful of rows) to a big table by a
-- unique index. With the default plan_cache_mode PostgreSQL makes a custom plan on every call
-- (custom plans know the arrays' sizes, so they always look cheaper than the generic one): the
-- planning was half of a posting's time. The generic plan is made once per session; it and the
-- embedded database's plans made on stale statistics (no autovacuum there) are held to index
-- probes, right at any table size (docs/ledger.md "Generic plans"). ledger.refs_proven = 'on' is
-- the marker of step 3, not a planner setting.
CREATE OR REPLACE FUNCTION ledger_post(
  p_kind text,
  p_reference text,
  p_idempotency_key text,
  p_request_hash text,
  p_reverses_entry_id bigint,
  p_metadata jsonb,
  p_owner_kinds text[],
  p_owner_ids text[],
  p_types text[],
  p_assets text[],
  p_deltas numeric[],
  p_posting_refs int[],
  p_posting_amounts numeric[],
  p_changed_count int
) RETURNS TABLE (o_entry_id bigint, o_created_at timestamptz, o_status text, o_account_ids bigint[])
LANGUAGE plpgsql
SET plan_cache_mode = force_generic_plan
SET enable_seqscan = off
SET enable_hashjoin = off
SET enable_mergejoin = off
SET ledger.refs_proven = 'on'
AS $$
DECLARE
  v_entry_id bigint;
  v_created_at timestamptz;
  v_account_ids bigint[] := array_fill(NULL::bigint, ARRAY[cardinality(p_owner_kinds)]);
  v_found int := 0;
  v_attempt int;
  v_row record;
BEGIN
  INSERT INTO ledger_entries AS e (kind, reference, idempotency_key, request_hash, reverses_entry_id, metadata)
  VALUES (p_kind, p_reference, p_idempotency_key, p_request_hash, p_reverses_entry_id, p_metadata)
  ON CONFLICT (idempotency_key) DO NOTHING
  RETURNING e.id, e.created_at INTO v_entry_id, v_created_at;
  IF v_entry_id IS NULL THEN
    RETURN QUERY SELECT NULL::bigint, NULL::timestamptz, 'replay'::text, NULL::bigint[];
    RETURN;
  END IF;

  -- Find the entry's accounts; accounts used for the first time are created (sorted, so
  -- concurrent creators insert in one order) and then found.
  FOR v_attempt IN 1..2 LOOP
    v_found := 0;
    FOR v_row IN
      SELECT a.id, u.ord
      FROM ledger_accounts a
      JOIN unnest(p_owner_kinds, p_owner_ids, p_types, p_assets) WITH ORDINALITY AS u(k, i, t, a2, ord)
        ON a.owner_kind = u.k AND a.owner_id = u.i AND a.type = u.t AND a.asset = u.a2
    LOOP
      v_account_ids[v_row.ord] := v_row.id;
      v_found := v_found + 1;
    END LOOP;
    EXIT WHEN v_found = cardinality(p_owner_kinds);
    IF v_attempt = 2 THEN
      RAISE EXCEPTION 'ledger_post: % of % accounts found', v_found, cardinality(p_owner_kinds);
    END IF;
    INSERT INTO ledger_accounts (owner_kind, owner_id, type, asset, is_negative_allowed)
    SELECT u.k, u.i, u.t, u.a, u.k = 'platform'
    FROM unnest(p_owner_kinds, p_owner_ids, p_types, p_assets) AS u(k, i, t, a)
    ORDER BY u.k, u.i, u.t, u.a
    ON CONFLICT DO NOTHING;
  END LOOP;

  -- The postings, before any balance row is locked (references proven above, step 3).
  INSERT INTO ledger_postings (entry_id, account_id, asset, amount_minor)
  SELECT v_entry_id, v_account_ids[p.r], p_assets[p.r], p.amount
  FROM unnest(p_posting_refs, p_posting_amounts) WITH ORDINALITY AS p(r, amount, ord)
  ORDER BY p.ord;

  -- Each net change in ascending account id order: the lock order of every ledger writer.
  FOR v_row IN
    SELECT c.id, c.delta FROM unnest(v_account_ids, p_deltas) AS c(id, delta) WHERE c.delta <> 0 ORDER BY c.id
  LOOP
    UPDATE ledger_accounts a SET balance_minor = a.balance_minor + v_row.delta
    WHERE a.id = v_row.id AND (a.balance_minor + v_row.delta >= 0 OR a.is_negative_allowed);
    IF NOT FOUND THEN
      RAISE EXCEPTION 'ledger_post: insufficient balance' USING ERRCODE = 'ML001';
    END IF;
  END LOOP;

  RETURN QUERY SELECT v_entry_id, v_created_at, 'ok'::text, v_account_ids;
END;
$$;
--> statement-breakpoint
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
--> statement-breakpoint
DROP TRIGGER ledger_postings_refs_check ON ledger_postings;
--> statement-breakpoint
CREATE TRIGGER ledger_postings_refs_check AFTER INSERT ON ledger_postings
  REFERENCING NEW TABLE AS ledger_postings_new FOR EACH STATEMENT
  WHEN (current_setting('ledger.refs_proven', true) IS DISTINCT FROM 'on')
  EXECUTE FUNCTION ledger_postings_refs_check();
