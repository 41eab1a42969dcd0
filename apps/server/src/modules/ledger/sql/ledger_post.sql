-- ledger_post: post one balanced journal entry in one statement (modules/ledger/ledger.service.ts
-- `postEntry`, docs/ledger.md "Posting an entry"). Why a function: PL/pgSQL keeps the plans of its
-- statements for the session, so a posting costs one short round trip, and one statement is
-- atomic on its own, so outside a transaction no BEGIN/COMMIT is needed. Steps:
--   1. claim the idempotency key (INSERT … ON CONFLICT DO NOTHING); taken → o_status 'replay'
--      (the caller compares request hashes);
--   2. find every account of the entry (one SELECT … INTO per account, a probe of the
--      owner/type/asset key; an account's id never changes, so no lock is needed to read it),
--      creating the missing ones first time round;
--   3. write the postings. Their references are proven by steps 1 and 2 (the entry was inserted by
--      this call, every account id was read from a row this transaction sees, and entries and
--      accounts are never deleted or renumbered), so the statement-level reference check of
--      ledger_postings skips this insert: its trigger fires only when the setting
--      ledger.refs_proven is not 'on', and the function's SET clause turns it on for the length of
--      this call alone (docs/ledger.md "References"). Every other writer is still checked;
--   4. in ascending id order (an insertion sort of the changed accounts in PL/pgSQL variables),
--      apply each account's net change with one conditional UPDATE of that row,
--      `balance = balance + d WHERE balance + d >= 0 OR is_negative_allowed`: the UPDATE is the
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
-- Why no cursor loop and no RETURN QUERY (migration 0073): every SQL statement PL/pgSQL runs is an
-- executor start (and a FOR … IN SELECT loop a portal as well), while an expression on PL/pgSQL
-- variables alone runs without the executor. So the accounts are found by one probe each, the
-- changed accounts are sorted in variables, and the answer is assigned to the OUT columns and
-- given by RETURN NEXT: about 11–13 % less CPU per call than the cursors and RETURN QUERY
-- (docs/ledger.md "Migration 0073").
--
-- SET clauses: the statements probe big tables by unique indexes or read the parameter arrays (a
-- handful of rows). With the default plan_cache_mode PostgreSQL makes a custom plan on every call
-- of a statement that joins the arrays to a table (custom plans know the arrays' sizes, so they
-- always look cheaper than the generic one): the planning was half of a posting's time. The
-- generic plan is made once per session; it and the embedded database's plans made on stale
-- statistics (no autovacuum there) are held to index probes, right at any table size
-- (docs/ledger.md "Generic plans"). ledger.refs_proven = 'on' is the marker of step 3, not a
-- planner setting.
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
  v_ids bigint[] := '{}';
  v_ds numeric[] := '{}';
  v_n int := 0;
  v_i int;
  v_j int;
  v_id bigint;
  v_d numeric;
BEGIN
  INSERT INTO ledger_entries AS e (kind, reference, idempotency_key, request_hash, reverses_entry_id, metadata)
  VALUES (p_kind, p_reference, p_idempotency_key, p_request_hash, p_reverses_entry_id, p_metadata)
  ON CONFLICT (idempotency_key) DO NOTHING
  RETURNING e.id, e.created_at INTO v_entry_id, v_created_at;
  IF v_entry_id IS NULL THEN
    o_status := 'replay';
    RETURN NEXT;
    RETURN;
  END IF;

  -- Find the entry's accounts; accounts used for the first time are created (sorted, so
  -- concurrent creators insert in one order) and then found.
  FOR v_attempt IN 1..2 LOOP
    v_found := 0;
    FOR v_i IN 1..cardinality(p_owner_kinds) LOOP
      SELECT a.id INTO v_id FROM ledger_accounts a
      WHERE a.owner_kind = p_owner_kinds[v_i] AND a.owner_id = p_owner_ids[v_i]
        AND a.type = p_types[v_i] AND a.asset = p_assets[v_i];
      IF FOUND THEN
        v_account_ids[v_i] := v_id;
        v_found := v_found + 1;
      END IF;
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
  FOR v_i IN 1..greatest(cardinality(v_account_ids), cardinality(p_deltas)) LOOP
    v_d := p_deltas[v_i];
    CONTINUE WHEN v_d = 0 OR v_d IS NULL;
    v_id := v_account_ids[v_i];
    v_j := v_n;
    WHILE v_j > 0 AND v_ids[v_j] > v_id LOOP
      v_ids[v_j + 1] := v_ids[v_j];
      v_ds[v_j + 1] := v_ds[v_j];
      v_j := v_j - 1;
    END LOOP;
    v_ids[v_j + 1] := v_id;
    v_ds[v_j + 1] := v_d;
    v_n := v_n + 1;
  END LOOP;
  FOR v_i IN 1..v_n LOOP
    v_id := v_ids[v_i];
    v_d := v_ds[v_i];
    UPDATE ledger_accounts a SET balance_minor = a.balance_minor + v_d
    WHERE a.id = v_id AND (a.balance_minor + v_d >= 0 OR a.is_negative_allowed);
    IF NOT FOUND THEN
      RAISE EXCEPTION 'ledger_post: insufficient balance' USING ERRCODE = 'ML001';
    END IF;
  END LOOP;

  o_entry_id := v_entry_id;
  o_created_at := v_created_at;
  o_status := 'ok';
  o_account_ids := v_account_ids;
  RETURN NEXT;
END;
$$;
