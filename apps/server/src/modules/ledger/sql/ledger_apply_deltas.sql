-- ledger_apply_deltas: the balance update of ledger_post_batch (docs/ledger.md "Batches"), under
-- the row locks it took, with the net change of each account of the batch. ledger_post applies its
-- own changes with the same conditional UPDATE, one row at a time in id order, so that the UPDATE
-- is also the row's lock (decision 0030).
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
