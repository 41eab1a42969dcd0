-- The swap claim finds each requested quote by primary key: its conditions on status and expiry are
-- written as one CASE, so the generic plan can no longer drive the claim from the pruning job's
-- partial index (every quote expiring after now, each joined to every request, with a freeze probe
-- per pair). Same rule, same answers (docs/exchange.md "The claim by primary key").
-- Pasted here: modules/exchange/sql/exchange_claim_quotes.sql.
-- exchange_claim_quotes: the swap claim (modules/exchange/exchange.swaps.ts `claimQuotes`,
-- docs/exchange.md "Exactly once, in batches"). Every requested quote that is the caller's, OPEN,
-- not expired at p_at, of a pair that is not switched off and of an account that is not frozen
-- becomes EXECUTED at p_at, in one statement, so concurrent claims of one quote execute it once;
-- the claimed rows are returned. The pair switch and the account's freeze are read inside the
-- UPDATE, so a pair switched off or an account frozen on another instance stops swaps at once, and
-- the swap needs no separate freeze check before its transaction (a request left unclaimed is told
-- why afterwards, the freeze first).
--
-- Why a function: its plan is made once per connection. Sent as a statement, PostgreSQL planned
-- the UPDATE afresh for every batch (custom plans know the arrays' sizes). The generic plan is held
-- to index probes, as the ledger functions' (docs/ledger.md "Generic plans"). The freeze is the
-- identity module's rule, asked of `identity_frozen_accounts` in FROM: a set-returning SQL function
-- that PostgreSQL inlines, so each claimed row is one probe of users by primary key inside this plan
-- (`identity_is_frozen`, a scalar function with a subquery, is not inlined: it ran its own executor
-- per claimed row, about 0.5 ms a row on the embedded database, most of a batch's claim;
-- docs/exchange.md "The freeze read inline"). A quote's user_id is text, and one that is not a uuid
-- has no account, so nothing frozen (NULL finds no row).
--
-- Why the CASE: the plan must start from the requests and find each quote by primary key. Written
-- as `q.status = 'OPEN' AND q.expires_at > p_at`, the conditions matched the pruning job's partial
-- index (`exchange_quotes_open_expiry_idx`, expires_at WHERE status = 'OPEN'), which the statistics
-- show nearly empty (a quote is open for seconds), and the generic plan drove the claim from it:
-- every quote expiring after p_at (the last 10 s of quotes, and on the embedded database, which is
-- never vacuumed, the dead versions of all those already executed), each joined to every request,
-- with one freeze probe per (quote, request) pair. As a CASE (the same rule: status is NOT NULL) it
-- matches no index, so each request is one probe of exchange_quotes_pkey and one of users
-- (docs/exchange.md "The claim by primary key").
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
    WHERE q.id = r.id AND q.user_id = r.user_id
      AND CASE WHEN q.status = 'OPEN' THEN q.expires_at > p_at ELSE false END
      AND NOT EXISTS (SELECT 1 FROM exchange_pairs p WHERE p.pair = q.from_coin || '/' || q.to_coin AND NOT p.is_enabled)
      AND NOT EXISTS (
        SELECT 1 FROM identity_frozen_accounts(
          CASE WHEN r.user_id ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' THEN r.user_id::uuid END
        )
      )
    RETURNING q.*;
END;
$$;
