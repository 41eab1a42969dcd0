-- card_authorize_batch: several authorisations of ONE card decided in one statement and one
-- transaction — one lock of the card row and one commit for all of them (group commit; the server's
-- per-card queue, modules/cards/cards.auth-queue.ts, docs/cards.md "Hot cards: one commit for a
-- card's queue"). Item i is (p_auth_ids[i], p_amounts_minor[i] in p_amount_currencies[i], …,
-- p_nows[i]); the items are decided in array order, each by card_authorize exactly as if it were
-- called alone at that point (it sees the holds, spend and PIN count of the items before it), so the
-- decisions are those of the same authorisations arriving one after another.
--   * The card row is locked first and stays locked to the commit (each item's own FOR UPDATE finds
--     the lock already held).
--   * No subtransaction per item (a BEGIN … EXCEPTION block each brought pg_subtrans and MultiXact
--     lookups and more backend CPU in the bench's wait sample): an item that raises (a hold the ledger refuses,
--     SQLSTATE ML001; a hold key taken) aborts the whole statement, nothing of any item is written,
--     and the caller decides each item again alone, in order (cards.authorisations.ts
--     `decideQueued`), so one failure reaches only its own authorisation.
-- Returns one row per item, in order: o_index (1-based) and card_authorize's columns.
CREATE OR REPLACE FUNCTION card_authorize_batch(
  p_card_token text,
  p_auth_ids text[],
  p_amounts_minor numeric[],
  p_amount_currencies text[],
  p_original_amounts text[],
  p_original_currencies text[],
  p_merchant_names text[],
  p_mccs text[],
  p_is_online boolean[],
  p_is_three_ds boolean[],
  p_pin_results text[],
  p_is_expiry_correct boolean[],
  p_nows timestamptz[],
  p_pin_tries_max integer,
  p_pin_block interval,
  p_confirm_ttl interval
) RETURNS TABLE (
  o_index integer,
  o_card_id bigint,
  o_user_id uuid,
  o_currency text,
  o_last4 text,
  o_transaction_id bigint,
  o_transaction_status text,
  o_decline_reason text,
  o_is_replay boolean
)
LANGUAGE plpgsql
AS $$
DECLARE
  v_count integer := coalesce(cardinality(p_auth_ids), 0);
BEGIN
  PERFORM 1 FROM cards c WHERE c.processor_token = p_card_token FOR UPDATE;
  FOR i IN 1 .. v_count LOOP
    RETURN QUERY SELECT i, a.* FROM card_authorize(
      p_card_token, p_auth_ids[i], p_amounts_minor[i], p_amount_currencies[i], p_original_amounts[i],
      p_original_currencies[i], p_merchant_names[i], p_mccs[i], p_is_online[i], p_is_three_ds[i],
      p_pin_results[i], p_is_expiry_correct[i], p_nows[i], p_pin_tries_max, p_pin_block, p_confirm_ttl) AS a;
  END LOOP;
END;
$$;
