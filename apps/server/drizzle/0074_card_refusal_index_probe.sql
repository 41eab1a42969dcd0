-- card_refusal's statements are held to index probes (SET enable_seqscan = off): PL/pgSQL keeps the
-- plan of its spend read (card_spend_totals by card and month) for the session, and a plan made
-- while the table was small — statistics of a few rows — scanned the whole growing table on every
-- authorisation until the next ANALYZE (docs/cards.md "Benchmark"). Same rule, same answers.
-- Pasted here: modules/cards/sql/card_refusal.sql.
-- card_refusal: why a card payment of p_amount (minor units of the card's currency) must be
-- declined now, or NULL when it may be approved (the reasons of docs/cards.md). p_card is the card's
-- row, read under the row's lock (FOR UPDATE) by the caller: card_authorize.sql for a new
-- authorisation, the confirmation of a 3-D Secure / "ask me above X" payment
-- (cards.events.ts `confirm`). Checks, in order:
--   status ACTIVE (CARD_NOT_ACTIVE); PIN block (PIN_TRIES_EXCEEDED); the card's lock and a frozen
--   account (CARD_LOCKED, identity_is_frozen); the user's blocked categories
--   (MERCHANT_CATEGORY_BLOCKED); the user's and the card's per-transaction maximum, then the day's
--   and the month's spend (UTC) plus this payment against the daily and monthly limits
--   (LIMIT_EXCEEDED) — the spend is read from card_spend_totals (kept by card_spend_totals_track),
--   at most 31 rows of the card's month, no scan of its purchases;
--   with p_is_balance_checked, the card's available balance (INSUFFICIENT_FUNDS, ledger_account_balance).
-- SET enable_seqscan = off: PL/pgSQL keeps the spend read's plan for the session, so a plan made
-- while card_spend_totals was small (statistics of a few rows, e.g. the embedded database's after
-- its statistics job analysed the table early in the day) scanned the whole growing table on every
-- decision until the next ANALYZE; held to the (card_id, day) index it is one probe at any size
-- (as the ledger functions' plans, docs/ledger.md "Generic plans"; docs/cards.md "Benchmark").
CREATE OR REPLACE FUNCTION card_refusal(
  p_card cards,
  p_amount numeric,
  p_mcc text,
  p_now timestamptz,
  p_is_balance_checked boolean
) RETURNS text
LANGUAGE plpgsql
SET enable_seqscan = off
AS $$
DECLARE
  v_today date := (p_now AT TIME ZONE 'UTC')::date;
  v_day_spent numeric;
  v_month_spent numeric;
BEGIN
  IF p_card.status <> 'ACTIVE' THEN
    RETURN 'CARD_NOT_ACTIVE';
  END IF;
  IF p_card.pin_blocked_until IS NOT NULL AND p_card.pin_blocked_until > p_now THEN
    RETURN 'PIN_TRIES_EXCEEDED';
  END IF;
  IF p_card.is_locked OR identity_is_frozen(p_card.user_id) THEN
    RETURN 'CARD_LOCKED';
  END IF;
  IF p_mcc IS NOT NULL AND p_card.blocked_mccs ? p_mcc THEN
    RETURN 'MERCHANT_CATEGORY_BLOCKED';
  END IF;
  IF (p_card.rule_per_transaction_max_minor IS NOT NULL AND p_amount > p_card.rule_per_transaction_max_minor)
    OR (p_card.limit_per_transaction_minor IS NOT NULL AND p_amount > p_card.limit_per_transaction_minor) THEN
    RETURN 'LIMIT_EXCEEDED';
  END IF;
  IF p_card.limit_daily_minor IS NOT NULL OR p_card.limit_monthly_minor IS NOT NULL THEN
    SELECT coalesce(sum(s.amount_minor) FILTER (WHERE s.day >= v_today), 0), coalesce(sum(s.amount_minor), 0)
    INTO v_day_spent, v_month_spent
    FROM card_spend_totals s
    WHERE s.card_id = p_card.id AND s.day >= date_trunc('month', p_now AT TIME ZONE 'UTC')::date;
    IF (p_card.limit_daily_minor IS NOT NULL AND v_day_spent + p_amount > p_card.limit_daily_minor)
      OR (p_card.limit_monthly_minor IS NOT NULL AND v_month_spent + p_amount > p_card.limit_monthly_minor) THEN
      RETURN 'LIMIT_EXCEEDED';
    END IF;
  END IF;
  IF p_is_balance_checked
    AND ledger_account_balance('card', p_card.id::text, 'CARD_AVAILABLE', p_card.currency) < p_amount THEN
    RETURN 'INSUFFICIENT_FUNDS';
  END IF;
  RETURN NULL;
END;
$$;
