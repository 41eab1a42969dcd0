-- The ledger's posting function (apps/server/src/modules/ledger/ledger.service.ts, docs/ledger.md).
-- One call per entry; PL/pgSQL keeps the plans of its statements for the session, so a posting
-- costs one short round trip. One statement is atomic on its own, so outside a transaction no
-- BEGIN/COMMIT is needed. Steps:
--   1. claim the idempotency key (INSERT … ON CONFLICT DO NOTHING); taken → o_status 'replay';
--   2. lock every account of the entry in id order (SELECT … ORDER BY id FOR UPDATE), creating
--      the missing ones first time round (sorted, so concurrent creators insert in one order);
--   3. (p_changed_count: how many accounts have a non-zero net change);
--   4. apply each account's net change with one conditional UPDATE that never takes an account
--      without is_negative_allowed below zero; any refused → RAISE with SQLSTATE ML001 (the
--      statement, or the caller's transaction, rolls everything back; the caller answers
--      INSUFFICIENT_BALANCE);
--   5. write the postings.
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
LANGUAGE plpgsql AS $$
DECLARE
  v_entry_id bigint;
  v_created_at timestamptz;
  v_account_ids bigint[] := array_fill(NULL::bigint, ARRAY[cardinality(p_owner_kinds)]);
  v_locked int := 0;
  v_changed int := p_changed_count;
  v_attempt int;
  v_updated int;
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

  UPDATE ledger_accounts a
  SET balance_minor = a.balance_minor + d.delta
  FROM unnest(v_account_ids, p_deltas) AS d(id, delta)
  WHERE a.id = d.id AND d.delta <> 0 AND (a.balance_minor + d.delta >= 0 OR a.is_negative_allowed);
  GET DIAGNOSTICS v_updated = ROW_COUNT;
  IF v_updated <> v_changed THEN
    -- Raising ends the statement with nothing written (the key claim and any new account included),
    -- in autocommit and in a caller's transaction alike.
    RAISE EXCEPTION 'ledger_post: insufficient balance' USING ERRCODE = 'ML001';
  END IF;

  INSERT INTO ledger_postings (entry_id, account_id, asset, amount_minor)
  SELECT v_entry_id, v_account_ids[p.r], p_assets[p.r], p.amount
  FROM unnest(p_posting_refs, p_posting_amounts) WITH ORDINALITY AS p(r, amount, ord)
  ORDER BY p.ord;

  RETURN QUERY SELECT v_entry_id, v_created_at, 'ok'::text, v_account_ids;
END;
$$;
