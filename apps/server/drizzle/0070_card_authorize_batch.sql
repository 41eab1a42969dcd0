-- card_authorize_batch: a hot card's queued authorisations decided in one statement, one lock and one
-- commit, each exactly as card_authorize alone (docs/cards.md "Hot cards: one commit for a card's queue").
-- The function's source: modules/cards/sql/card_authorize_batch.sql.
-- card_authorize_batch: several authorisations of ONE card decided in one statement and one
-- transaction — one lock of the card row and one commit for all of them (group commit; the server's
-- per-card queue, modules/cards/cards.auth-queue.ts, docs/cards.md "Hot cards: one commit for a
-- card's queue"). Item i is (p_auth_ids[i], p_amounts_minor[i] in p_amount_currencies[i], …,
-- p_nows[i]); the items are decided in array order, each by card_authorize exactly as if it were
-- called alone at that point (it sees the holds, spend and PIN count of the items before it), so the
-- decisions are those of the same authorisations arriving one after another.
--   * The card row is locked first, in the outer transaction, so it stays locked through the items
--     (each item's own FOR UPDATE finds the lock already held).
--   * Each item runs in its own subtransaction (BEGIN … EXCEPTION): an item that fails is rolled
--     back alone and the others keep their decisions. A hold the ledger refuses (SQLSTATE ML001: a
--     balance below zero, money left the card without its lock) is declined INSUFFICIENT_FUNDS here
--     (a DECLINED row, nothing moved), as the single call's caller does in a new transaction; any
--     other failure is answered as o_error_state / o_error_message for that item (nothing of it
--     written) and the caller fails that authorisation only.
--   * At most 64 items: more subtransactions than a backend caches would slow every snapshot.
-- Returns one row per item, in order: o_index (1-based) and card_authorize's columns (NULL ones
-- with o_error_state set on a failed item).
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
  o_is_replay boolean,
  o_error_state text,
  o_error_message text
)
LANGUAGE plpgsql
AS $$
DECLARE
  v_count integer := coalesce(cardinality(p_auth_ids), 0);
  v_card cards%ROWTYPE;
  v_row record;
  v_state text;
  v_message text;
BEGIN
  IF v_count > 64 THEN
    RAISE EXCEPTION 'card_authorize_batch: % items, at most 64', v_count;
  END IF;
  SELECT * INTO v_card FROM cards c WHERE c.processor_token = p_card_token FOR UPDATE;
  FOR i IN 1 .. v_count LOOP
    o_index := i;
    v_state := NULL;
    v_message := NULL;
    BEGIN
      SELECT * INTO STRICT v_row FROM card_authorize(
        p_card_token, p_auth_ids[i], p_amounts_minor[i], p_amount_currencies[i], p_original_amounts[i],
        p_original_currencies[i], p_merchant_names[i], p_mccs[i], p_is_online[i], p_is_three_ds[i],
        p_pin_results[i], p_is_expiry_correct[i], p_nows[i], p_pin_tries_max, p_pin_block, p_confirm_ttl);
    EXCEPTION WHEN OTHERS THEN
      GET STACKED DIAGNOSTICS v_state = RETURNED_SQLSTATE, v_message = MESSAGE_TEXT;
    END;
    IF v_state = 'ML001' AND p_amounts_minor[i] > 0 AND v_card.id IS NOT NULL THEN
      BEGIN
        SELECT v_card.id AS o_card_id, v_card.user_id AS o_user_id, v_card.currency AS o_currency,
          v_card.last4 AS o_last4, t.id AS o_transaction_id, t.status AS o_transaction_status,
          t.decline_reason AS o_decline_reason, true AS o_is_replay
        INTO v_row FROM card_transactions t WHERE t.processor_auth_id = p_auth_ids[i];
        IF NOT FOUND THEN
          INSERT INTO card_transactions (card_id, kind, status, amount_minor, decline_reason, original_amount,
            original_currency, merchant_name, mcc, processor_auth_id, is_online, created_at, updated_at)
          VALUES (v_card.id, 'PURCHASE', 'DECLINED', p_amounts_minor[i], 'INSUFFICIENT_FUNDS',
            p_original_amounts[i], p_original_currencies[i], p_merchant_names[i], p_mccs[i], p_auth_ids[i],
            p_is_online[i], p_nows[i], p_nows[i])
          RETURNING v_card.id AS o_card_id, v_card.user_id AS o_user_id, v_card.currency AS o_currency,
            v_card.last4 AS o_last4, id AS o_transaction_id, status AS o_transaction_status,
            decline_reason AS o_decline_reason, false AS o_is_replay
          INTO v_row;
        END IF;
        v_state := NULL;
        v_message := NULL;
      EXCEPTION WHEN OTHERS THEN
        GET STACKED DIAGNOSTICS v_state = RETURNED_SQLSTATE, v_message = MESSAGE_TEXT;
      END;
    END IF;
    IF v_state IS NULL THEN
      o_card_id := v_row.o_card_id;
      o_user_id := v_row.o_user_id;
      o_currency := v_row.o_currency;
      o_last4 := v_row.o_last4;
      o_transaction_id := v_row.o_transaction_id;
      o_transaction_status := v_row.o_transaction_status;
      o_decline_reason := v_row.o_decline_reason;
      o_is_replay := v_row.o_is_replay;
    ELSE
      o_card_id := NULL;
      o_user_id := NULL;
      o_currency := NULL;
      o_last4 := NULL;
      o_transaction_id := NULL;
      o_transaction_status := NULL;
      o_decline_reason := NULL;
      o_is_replay := false;
    END IF;
    o_error_state := v_state;
    o_error_message := v_message;
    RETURN NEXT;
  END LOOP;
END;
$$;
