-- The balance update of ledger_post and ledger_post_batch, written once: ledger_apply_deltas
-- (issue 13 item 5). From this migration on, each SQL function's current definition lives in its
-- module as a source file (src/modules/ledger/sql/*.sql, src/modules/exchange/sql/*.sql); a change
-- ships as a new migration that pastes the changed files, and ledger.sql-source.api.test.ts checks
-- that the migrated functions equal their files. Pasted here: ledger_apply_deltas.sql,
-- ledger_post.sql and ledger_post_batch.sql (exchange_claim_quotes is unchanged since 0013).
-- ledger_apply_deltas: the one place where ledger balances change (docs/ledger.md "Posting an
-- entry"). Called by ledger_post and ledger_post_batch, under the row locks they took, with the
-- net change of each account of the statement.
--
-- Inputs: p_account_ids and p_deltas are parallel (account id, net change in minor units); a zero
-- change is skipped. p_caller names the calling function: the error message starts with it.
--
-- Why one conditional UPDATE, `balance = balance + delta WHERE balance + delta >= 0 OR
-- is_negative_allowed`, and never read-modify-write: the check and the change are one step on the
-- locked row, so no interleaving can take a user account below zero, and the CHECK constraint on
-- ledger_accounts stays a backstop that never fires.
--
-- Why RAISE and not a status: a refused change must undo everything the caller's statement did
-- (the idempotency key claim, new accounts, earlier entries of a batch), in autocommit and inside
-- a caller's transaction alike. SQLSTATE ML001 is what modules/ledger/ledger.service.ts maps to
-- INSUFFICIENT_BALANCE (130).
--
-- SET clauses: as the callers', so that a direct call plans alike. The statement joins a handful
-- of ids (unnest) to ledger_accounts by its primary key; the generic plan is made once per session
-- and held to index probes (docs/ledger.md "Generic plans").
CREATE OR REPLACE FUNCTION ledger_apply_deltas(p_account_ids bigint[], p_deltas numeric[], p_caller text)
RETURNS void
LANGUAGE plpgsql
SET plan_cache_mode = force_generic_plan
SET enable_seqscan = off
SET enable_hashjoin = off
SET enable_mergejoin = off
AS $$
DECLARE
  v_changed int := cardinality(array_remove(p_deltas, 0::numeric));
  v_updated int;
BEGIN
  UPDATE ledger_accounts a
  SET balance_minor = a.balance_minor + d.delta
  FROM unnest(p_account_ids, p_deltas) AS d(id, delta)
  WHERE a.id = d.id AND d.delta <> 0 AND (a.balance_minor + d.delta >= 0 OR a.is_negative_allowed);
  GET DIAGNOSTICS v_updated = ROW_COUNT;
  IF v_updated <> v_changed THEN
    -- Raising ends the caller's statement with nothing written (the key claim and any new account
    -- included), in autocommit and in a caller's transaction alike.
    RAISE EXCEPTION '%: insufficient balance', p_caller USING ERRCODE = 'ML001';
  END IF;
END;
$$;
--> statement-breakpoint
-- ledger_post: post one balanced journal entry in one statement (modules/ledger/ledger.service.ts
-- `postEntry`, docs/ledger.md "Posting an entry"). Why a function: PL/pgSQL keeps the plans of its
-- statements for the session, so a posting costs one short round trip, and one statement is
-- atomic on its own, so outside a transaction no BEGIN/COMMIT is needed. Steps:
--   1. claim the idempotency key (INSERT … ON CONFLICT DO NOTHING); taken → o_status 'replay'
--      (the caller compares request hashes);
--   2. lock every account of the entry in id order (SELECT … ORDER BY id FOR UPDATE), creating
--      the missing ones first time round;
--   3. apply each account's net change (ledger_apply_deltas: one conditional UPDATE that never
--      takes an account without is_negative_allowed below zero; a refusal raises SQLSTATE ML001,
--      which rolls the whole statement back and the caller answers INSUFFICIENT_BALANCE);
--   4. write the postings.
-- Inputs: the entry's fields; per account (distinct): owner kind, owner id, type, asset and net
-- change (p_deltas); per posting: account ordinal (1-based) and amount. p_changed_count (how many
-- deltas are non-zero) is no longer read — ledger_apply_deltas counts them — and stays because the
-- argument list is the function's identity: changing it would create a second function.
-- Returns one row: entry id and time ('ok'), or status 'replay'; and the account ids by ordinal.
--
-- SET clauses: every statement joins the parameter arrays (a handful of rows) to a big table by a
-- unique index. With the default plan_cache_mode PostgreSQL makes a custom plan on every call
-- (custom plans know the arrays' sizes, so they always look cheaper than the generic one): the
-- planning was half of a posting's time. The generic plan is made once per session; it and the
-- embedded database's plans made on stale statistics (no autovacuum there) are held to index
-- probes, right at any table size (docs/ledger.md "Generic plans").
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
AS $$
DECLARE
  v_entry_id bigint;
  v_created_at timestamptz;
  v_account_ids bigint[] := array_fill(NULL::bigint, ARRAY[cardinality(p_owner_kinds)]);
  v_locked int := 0;
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

  -- Lock the entry's existing accounts in id order; accounts used for the first time are created
  -- (sorted, so concurrent creators insert in one order) and then locked. New accounts have the
  -- highest ids, so they are locked last in every transaction: no lock cycle is possible.
  FOR v_attempt IN 1..2 LOOP
    v_locked := 0;
    FOR v_row IN
      SELECT a.id, u.ord
      FROM ledger_accounts a
      JOIN unnest(p_owner_kinds, p_owner_ids, p_types, p_assets) WITH ORDINALITY AS u(k, i, t, a2, ord)
        ON a.owner_kind = u.k AND a.owner_id = u.i AND a.type = u.t AND a.asset = u.a2
      ORDER BY a.id
      FOR UPDATE OF a
    LOOP
      v_account_ids[v_row.ord] := v_row.id;
      v_locked := v_locked + 1;
    END LOOP;
    EXIT WHEN v_locked = cardinality(p_owner_kinds);
    IF v_attempt = 2 THEN
      RAISE EXCEPTION 'ledger_post: % of % accounts found', v_locked, cardinality(p_owner_kinds);
    END IF;
    INSERT INTO ledger_accounts (owner_kind, owner_id, type, asset, is_negative_allowed)
    SELECT u.k, u.i, u.t, u.a, u.k = 'platform'
    FROM unnest(p_owner_kinds, p_owner_ids, p_types, p_assets) AS u(k, i, t, a)
    ORDER BY u.k, u.i, u.t, u.a
    ON CONFLICT DO NOTHING;
  END LOOP;

  PERFORM ledger_apply_deltas(v_account_ids, p_deltas, 'ledger_post');

  INSERT INTO ledger_postings (entry_id, account_id, asset, amount_minor)
  SELECT v_entry_id, v_account_ids[p.r], p_assets[p.r], p.amount
  FROM unnest(p_posting_refs, p_posting_amounts) WITH ORDINALITY AS p(r, amount, ord)
  ORDER BY p.ord;

  RETURN QUERY SELECT v_entry_id, v_created_at, 'ok'::text, v_account_ids;
END;
$$;
--> statement-breakpoint
-- ledger_post_batch: post up to 64 entries in one statement, each with its own outcome
-- (modules/ledger/ledger.service.ts `postEntries`, docs/ledger.md "Batches"), in the spirit of
-- TigerBeetle's batches: one entry refused for want of funds does not refuse the others. Why
-- set-based: a batch costs a handful of statements inside the database instead of a handful per
-- entry. Steps:
--   1. entries whose idempotency key is already taken (committed) → 'replay' (the caller compares
--      request hashes);
--   2. lock every account of the batch in id order (SELECT … ORDER BY id FOR UPDATE), creating the
--      missing ones first time round (sorted) — the same lock order as ledger_post, so batches
--      and single postings never wait on each other in a cycle;
--   3. walk the entries in batch order over the locked balances: an entry that would take an
--      account without is_negative_allowed below zero → 'insufficient' (nothing of it is applied);
--      the others are applied to the running balances, so later entries see earlier ones;
--   4. insert the accepted entries (ids ascend in batch order). A key taken since step 1 by a
--      concurrent twin that has now committed → RAISE SQLSTATE ML002: the statement (and the
--      caller's transaction) undoes everything and the caller posts the entries one by one;
--   5. apply each account's net change (ledger_apply_deltas, as ledger_post; a refusal cannot
--      happen under the locks after step 3, and would raise ML001);
--   6. write the postings of the accepted entries.
-- Inputs are parallel arrays. Per entry (n): kinds, references, keys, hashes, and metadata as a
-- JSON array of n objects. Per account (m, distinct in the batch): owner kind, owner id, type,
-- asset. Per net change of one entry on one account (grouped by entry, entries ascending): entry
-- ordinal (1-based), account ordinal, delta. Per posting: entry ordinal, account ordinal, amount.
-- Returns one row per entry: ordinal, status ('ok' | 'replay' | 'insufficient'), entry id and time
-- (when 'ok'); the first row also carries the account ids (by account ordinal).
--
-- SET clauses: as ledger_post's — a generic plan made once per session, held to index probes (a
-- handful of keys against a big table by a unique index; the embedded database's statistics can
-- lag its tables, and with stale ones the planner chose hash joins over sequential scans).
-- docs/ledger.md "Generic plans".
CREATE OR REPLACE FUNCTION ledger_post_batch(
  p_kinds text[],
  p_references text[],
  p_idempotency_keys text[],
  p_request_hashes text[],
  p_metadata jsonb,
  p_owner_kinds text[],
  p_owner_ids text[],
  p_types text[],
  p_assets text[],
  p_change_entries int[],
  p_change_refs int[],
  p_change_deltas numeric[],
  p_posting_entries int[],
  p_posting_refs int[],
  p_posting_amounts numeric[]
) RETURNS TABLE (o_ordinal int, o_status text, o_entry_id bigint, o_created_at timestamptz, o_account_ids bigint[])
LANGUAGE plpgsql
SET plan_cache_mode = force_generic_plan
SET enable_seqscan = off
SET enable_hashjoin = off
SET enable_mergejoin = off
AS $$
DECLARE
  v_entries int := cardinality(p_idempotency_keys);
  v_accounts int := cardinality(p_owner_kinds);
  v_changes int := cardinality(p_change_entries);
  v_status text[] := array_fill('ok'::text, ARRAY[v_entries]);
  v_entry_ids bigint[] := array_fill(NULL::bigint, ARRAY[v_entries]);
  v_created_ats timestamptz[] := array_fill(NULL::timestamptz, ARRAY[v_entries]);
  v_account_ids bigint[] := array_fill(NULL::bigint, ARRAY[v_accounts]);
  v_balances numeric[] := array_fill(0::numeric, ARRAY[v_accounts]);
  v_negative_allowed boolean[] := array_fill(false, ARRAY[v_accounts]);
  v_net numeric[] := array_fill(0::numeric, ARRAY[v_accounts]);
  v_accepted int := 0;
  v_inserted int := 0;
  v_locked int;
  v_attempt int;
  v_first int;
  v_last int;
  v_entry int;
  v_is_funded boolean;
  v_i int;
  v_row record;
BEGIN
  -- 1. Keys already used.
  FOR v_row IN
    SELECT u.ord FROM unnest(p_idempotency_keys) WITH ORDINALITY AS u(k, ord)
    JOIN ledger_entries e ON e.idempotency_key = u.k
  LOOP
    v_status[v_row.ord] := 'replay';
  END LOOP;

  -- 2. Lock (and create) every account in id order, reading its balance under the lock.
  FOR v_attempt IN 1..2 LOOP
    v_locked := 0;
    FOR v_row IN
      SELECT a.id, a.balance_minor, a.is_negative_allowed, u.ord
      FROM ledger_accounts a
      JOIN unnest(p_owner_kinds, p_owner_ids, p_types, p_assets) WITH ORDINALITY AS u(k, i, t, a2, ord)
        ON a.owner_kind = u.k AND a.owner_id = u.i AND a.type = u.t AND a.asset = u.a2
      ORDER BY a.id
      FOR UPDATE OF a
    LOOP
      v_account_ids[v_row.ord] := v_row.id;
      v_balances[v_row.ord] := v_row.balance_minor;
      v_negative_allowed[v_row.ord] := v_row.is_negative_allowed;
      v_locked := v_locked + 1;
    END LOOP;
    EXIT WHEN v_locked = v_accounts;
    IF v_attempt = 2 THEN
      RAISE EXCEPTION 'ledger_post_batch: % of % accounts found', v_locked, v_accounts;
    END IF;
    INSERT INTO ledger_accounts (owner_kind, owner_id, type, asset, is_negative_allowed)
    SELECT u.k, u.i, u.t, u.a, u.k = 'platform'
    FROM unnest(p_owner_kinds, p_owner_ids, p_types, p_assets) AS u(k, i, t, a)
    ORDER BY u.k, u.i, u.t, u.a
    ON CONFLICT DO NOTHING;
  END LOOP;

  -- 3. Entries in batch order over the running balances.
  v_first := 1;
  WHILE v_first <= v_changes LOOP
    v_entry := p_change_entries[v_first];
    v_last := v_first;
    v_is_funded := true;
    WHILE v_last <= v_changes AND p_change_entries[v_last] = v_entry LOOP
      IF NOT v_negative_allowed[p_change_refs[v_last]] AND v_balances[p_change_refs[v_last]] + p_change_deltas[v_last] < 0 THEN
        v_is_funded := false;
      END IF;
      v_last := v_last + 1;
    END LOOP;
    IF v_status[v_entry] = 'ok' THEN
      IF v_is_funded THEN
        FOR v_i IN v_first..v_last - 1 LOOP
          v_balances[p_change_refs[v_i]] := v_balances[p_change_refs[v_i]] + p_change_deltas[v_i];
          v_net[p_change_refs[v_i]] := v_net[p_change_refs[v_i]] + p_change_deltas[v_i];
        END LOOP;
      ELSE
        v_status[v_entry] := 'insufficient';
      END IF;
    END IF;
    v_first := v_last;
  END LOOP;

  -- 4. The accepted entries.
  FOR v_i IN 1..v_entries LOOP
    IF v_status[v_i] = 'ok' THEN v_accepted := v_accepted + 1; END IF;
  END LOOP;
  FOR v_row IN
    WITH inserted AS (
      INSERT INTO ledger_entries AS e (kind, reference, idempotency_key, request_hash, metadata)
      SELECT p_kinds[u.ord], p_references[u.ord], u.k, p_request_hashes[u.ord], coalesce(p_metadata -> (u.ord::int - 1), '{}'::jsonb)
      FROM unnest(p_idempotency_keys) WITH ORDINALITY AS u(k, ord)
      WHERE v_status[u.ord] = 'ok'
      ORDER BY u.ord
      ON CONFLICT (idempotency_key) DO NOTHING
      RETURNING e.id, e.idempotency_key, e.created_at
    )
    SELECT u.ord, inserted.id, inserted.created_at
    FROM inserted JOIN unnest(p_idempotency_keys) WITH ORDINALITY AS u(k, ord) ON u.k = inserted.idempotency_key
  LOOP
    v_entry_ids[v_row.ord] := v_row.id;
    v_created_ats[v_row.ord] := v_row.created_at;
    v_inserted := v_inserted + 1;
  END LOOP;
  IF v_inserted <> v_accepted THEN
    RAISE EXCEPTION 'ledger_post_batch: % of % keys taken concurrently', v_accepted - v_inserted, v_accepted USING ERRCODE = 'ML002';
  END IF;

  -- 5. Net change per account.
  PERFORM ledger_apply_deltas(v_account_ids, v_net, 'ledger_post_batch');

  -- 6. Postings of the accepted entries.
  INSERT INTO ledger_postings (entry_id, account_id, asset, amount_minor)
  SELECT v_entry_ids[p.e], v_account_ids[p.r], p_assets[p.r], p.amount
  FROM unnest(p_posting_entries, p_posting_refs, p_posting_amounts) WITH ORDINALITY AS p(e, r, amount, ord)
  WHERE v_status[p.e] = 'ok'
  ORDER BY p.ord;

  RETURN QUERY
    SELECT g::int, v_status[g], v_entry_ids[g], v_created_ats[g], CASE WHEN g = 1 THEN v_account_ids END
    FROM generate_series(1, v_entries) AS g;
END;
$$;
