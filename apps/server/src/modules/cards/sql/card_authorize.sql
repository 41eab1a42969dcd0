-- card_authorize: the authorisation decision (the hot path; modules/cards/cards.events.ts
-- `authorize`, docs/cards.md "Authorisation decision") in one statement, so an approval costs one
-- round trip and, outside a transaction, needs no BEGIN/COMMIT. Every row it returns carries the
-- card's facts that never change (owner, currency, last 4), so the caller needs no read of its own
-- (migration 0053; before it, a card the process had not cached cost one more round trip). Steps:
--   1. lock the card of p_card_token (SELECT … FOR UPDATE): decisions on one card are serial, so
--      concurrent authorisations never overspend. No card: DECLINED CARD_NOT_ACTIVE, no row.
--   2. the authorisation already recorded (unique processor_auth_id: the same webhook twice):
--      its decision again, o_is_replay — one hold whatever the deliveries;
--   3. p_amount_minor in p_amount_currency: when that is not the card's currency (the caller did not
--      know the card's currency and the merchant charges in another), the card's facts and a NULL
--      status, nothing written: the caller converts the amount at its rate table and calls again.
--      The amount NULL or ≤ 0: CURRENCY_NOT_SUPPORTED;
--   4. the PIN the processor checked: a wrong one counts (the p_pin_tries_max-th blocks the card
--      for p_pin_block: WRONG_PIN), a right one resets the count — on an active, unlocked,
--      unblocked card only;
--   5. card_refusal (status, PIN block, lock or frozen account, blocked category, per-transaction,
--      daily and monthly limits), then the expiry the processor checked (WRONG_EXPIRY), then the
--      available balance (INSUFFICIENT_FUNDS; ledger_account_balance);
--   6. a 3-D Secure payment online, or one in person above the card's "ask me above X": a
--      PENDING_CONFIRMATION row confirmed by p_now + p_confirm_ttl (the caller tells the user);
--   7. otherwise the hold, ledger_post CARD_HOLD available → held keyed `card-hold:<auth id>`, and
--      an AUTHORIZED row. The entry's request hash is `hashEntryRequest` (modules/ledger/ledger.service.ts)
--      of that entry written out in SQL: SHA-256 of the canonical JSON
--      {"kind","reference","metadata":[],"postings":[the two postings "card|<id>|<type>|<currency>|<amount>",
--      sorted],"reversesEntryId":null}; cards.api.test.ts checks the two agree.
-- A decline writes a DECLINED row and moves nothing. The hold's own update still refuses a balance
-- going below zero (SQLSTATE ML001 from ledger_apply_deltas, everything rolled back) when money left
-- the card between step 5 and 7 without the card's lock; the caller then declines in a new
-- transaction. Returns one row: card id (NULL when no card), the transaction's id, status and
-- decline reason, and whether it was recorded before, after the card's owner, currency and last 4.
-- plan_cache_mode: every statement is an equality probe of a unique index; the generic plan is
-- made once per session (as in ledger_post.sql).
CREATE OR REPLACE FUNCTION card_authorize(
  p_card_token text,
  p_auth_id text,
  p_amount_minor numeric,
  p_amount_currency text,
  p_original_amount text,
  p_original_currency text,
  p_merchant_name text,
  p_mcc text,
  p_is_online boolean,
  p_is_three_ds boolean,
  p_pin_result text,
  p_is_expiry_correct boolean,
  p_now timestamptz,
  p_pin_tries_max integer,
  p_pin_block interval,
  p_confirm_ttl interval
) RETURNS TABLE (
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
SET plan_cache_mode = force_generic_plan
AS $$
DECLARE
  v_card cards%ROWTYPE;
  v_twin record;
  v_amount numeric := p_amount_minor;
  v_reason text;
  v_confirm text;
  v_wrong_count integer;
  v_hold_status text;
  v_hold_hash text;
  v_id bigint;
BEGIN
  SELECT * INTO v_card FROM cards c WHERE c.processor_token = p_card_token FOR UPDATE;
  IF NOT FOUND THEN
    RETURN QUERY SELECT NULL::bigint, NULL::uuid, NULL::text, NULL::text, NULL::bigint, 'DECLINED'::text,
      'CARD_NOT_ACTIVE'::text, false;
    RETURN;
  END IF;

  SELECT t.id, t.status, t.decline_reason INTO v_twin
  FROM card_transactions t WHERE t.processor_auth_id = p_auth_id;
  IF FOUND THEN
    RETURN QUERY SELECT v_card.id, v_card.user_id, v_card.currency, v_card.last4, v_twin.id, v_twin.status,
      v_twin.decline_reason, true;
    RETURN;
  END IF;

  IF v_amount IS NOT NULL AND p_amount_currency IS DISTINCT FROM v_card.currency THEN
    RETURN QUERY SELECT v_card.id, v_card.user_id, v_card.currency, v_card.last4, NULL::bigint, NULL::text,
      NULL::text, false;
    RETURN;
  END IF;

  IF v_amount IS NULL OR v_amount <= 0 THEN
    v_amount := 0;
    v_reason := 'CURRENCY_NOT_SUPPORTED';
  ELSE
    IF v_card.status = 'ACTIVE' AND NOT v_card.is_locked
      AND NOT (v_card.pin_blocked_until IS NOT NULL AND v_card.pin_blocked_until > p_now)
      AND p_pin_result <> 'NOT_PRESENT' THEN
      IF p_pin_result = 'WRONG' THEN
        v_wrong_count := v_card.pin_wrong_count + 1;
        UPDATE cards c SET
          pin_wrong_count = CASE WHEN v_wrong_count >= p_pin_tries_max THEN 0 ELSE v_wrong_count END,
          pin_blocked_until = CASE WHEN v_wrong_count >= p_pin_tries_max THEN p_now + p_pin_block END,
          updated_at = p_now
        WHERE c.id = v_card.id;
        v_reason := 'WRONG_PIN';
      ELSIF v_card.pin_wrong_count > 0 THEN
        UPDATE cards c SET pin_wrong_count = 0, updated_at = p_now WHERE c.id = v_card.id;
      END IF;
    END IF;
    IF v_reason IS NULL THEN
      v_reason := card_refusal(v_card, v_amount, p_mcc, p_now, false);
    END IF;
    IF v_reason IS NULL AND NOT p_is_expiry_correct THEN
      v_reason := 'WRONG_EXPIRY';
    END IF;
    IF v_reason IS NULL
      AND ledger_account_balance('card', v_card.id::text, 'CARD_AVAILABLE', v_card.currency) < v_amount THEN
      v_reason := 'INSUFFICIENT_FUNDS';
    END IF;
  END IF;

  IF v_reason IS NOT NULL THEN
    INSERT INTO card_transactions (card_id, kind, status, amount_minor, decline_reason, original_amount,
      original_currency, merchant_name, mcc, processor_auth_id, is_online, created_at, updated_at)
    VALUES (v_card.id, 'PURCHASE', 'DECLINED', v_amount, v_reason, p_original_amount,
      p_original_currency, p_merchant_name, p_mcc, p_auth_id, p_is_online, p_now, p_now)
    RETURNING id INTO v_id;
    RETURN QUERY SELECT v_card.id, v_card.user_id, v_card.currency, v_card.last4, v_id, 'DECLINED'::text,
      v_reason, false;
    RETURN;
  END IF;

  v_confirm := CASE
    WHEN p_is_online AND p_is_three_ds THEN 'THREE_DS'
    WHEN NOT p_is_online AND v_card.rule_ask_above_minor IS NOT NULL AND v_amount > v_card.rule_ask_above_minor
      THEN 'ASK_ABOVE'
  END;
  IF v_confirm IS NOT NULL THEN
    INSERT INTO card_transactions (card_id, kind, status, amount_minor, original_amount, original_currency,
      merchant_name, mcc, processor_auth_id, is_online, confirm_reason, confirm_by, created_at, updated_at)
    VALUES (v_card.id, 'PURCHASE', 'PENDING_CONFIRMATION', v_amount, p_original_amount, p_original_currency,
      p_merchant_name, p_mcc, p_auth_id, p_is_online, v_confirm, p_now + p_confirm_ttl, p_now, p_now)
    RETURNING id INTO v_id;
    RETURN QUERY SELECT v_card.id, v_card.user_id, v_card.currency, v_card.last4, v_id,
      'PENDING_CONFIRMATION'::text, NULL::text, false;
    RETURN;
  END IF;

  v_hold_hash := encode(sha256(convert_to(
    '{"kind":"CARD_HOLD","reference":"card:' || v_card.id || '","metadata":[],"postings":["card|' || v_card.id
      || '|CARD_AVAILABLE|' || v_card.currency || '|' || (-v_amount)::text || '","card|' || v_card.id
      || '|CARD_HELD|' || v_card.currency || '|' || v_amount::text || '"],"reversesEntryId":null}',
    'UTF8')), 'hex');
  SELECT lp.o_status INTO v_hold_status
  FROM ledger_post(
    'CARD_HOLD', 'card:' || v_card.id, 'card-hold:' || p_auth_id, v_hold_hash, NULL, '{}'::jsonb,
    ARRAY['card', 'card'], ARRAY[v_card.id::text, v_card.id::text], ARRAY['CARD_AVAILABLE', 'CARD_HELD'],
    ARRAY[v_card.currency, v_card.currency], ARRAY[-v_amount, v_amount], ARRAY[1, 2], ARRAY[-v_amount, v_amount], 2
  ) AS lp;
  IF v_hold_status <> 'ok' THEN
    RAISE EXCEPTION 'card_authorize: the hold key card-hold:% is taken without a transaction row', p_auth_id;
  END IF;
  INSERT INTO card_transactions (card_id, kind, status, amount_minor, held_minor, original_amount,
    original_currency, merchant_name, mcc, processor_auth_id, is_online, created_at, updated_at)
  VALUES (v_card.id, 'PURCHASE', 'AUTHORIZED', v_amount, v_amount, p_original_amount,
    p_original_currency, p_merchant_name, p_mcc, p_auth_id, p_is_online, p_now, p_now)
  RETURNING id INTO v_id;
  RETURN QUERY SELECT v_card.id, v_card.user_id, v_card.currency, v_card.last4, v_id, 'AUTHORIZED'::text,
    NULL::text, false;
END;
$$;
