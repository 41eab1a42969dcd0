-- exchange_claim_quotes: the swap claim (modules/exchange/exchange.service.ts `claimQuotes`,
-- docs/exchange.md "Exactly once, in batches"). Every requested quote that is the caller's, OPEN,
-- not expired at p_at and of a pair that is not switched off becomes EXECUTED at p_at, in one
-- statement, so concurrent claims of one quote execute it once; the claimed rows are returned.
-- The pair switch is read inside the UPDATE, so a pair switched off on another instance stops
-- swaps at once.
--
-- Why a function: its plan is made once per connection. Sent as a statement, PostgreSQL planned
-- the UPDATE afresh for every batch (custom plans know the arrays' sizes). The generic plan is held
-- to index probes, as the ledger functions' (docs/ledger.md "Generic plans").
CREATE OR REPLACE FUNCTION exchange_claim_quotes(p_quote_ids uuid[], p_user_ids text[], p_at timestamptz)
RETURNS SETOF exchange_quotes
LANGUAGE plpgsql
SET plan_cache_mode = force_generic_plan
SET enable_seqscan = off
SET enable_hashjoin = off
SET enable_mergejoin = off
AS $$
BEGIN
  RETURN QUERY
    UPDATE exchange_quotes q
    SET status = 'EXECUTED', executed_at = p_at
    FROM unnest(p_quote_ids, p_user_ids) AS r(id, user_id)
    WHERE q.id = r.id AND q.user_id = r.user_id AND q.status = 'OPEN' AND q.expires_at > p_at
      AND NOT EXISTS (SELECT 1 FROM exchange_pairs p WHERE p.pair = q.from_coin || '/' || q.to_coin AND NOT p.is_enabled)
    RETURNING q.*;
END;
$$;
