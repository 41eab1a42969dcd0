-- The swap claim asks the identity module's freeze rule through identity_frozen_accounts, a
-- set-returning SQL function that PostgreSQL inlines, instead of calling identity_is_frozen per
-- claimed row (a scalar function with a subquery, not inlined: its own executor for every row, about
-- 0.5 ms a row on the embedded database; docs/exchange.md "The freeze read inline"). Same rule, same
-- answers; identity_is_frozen now asks identity_frozen_accounts too, so the rule is stated once.
-- Pasted here: modules/identity/sql/identity_frozen_accounts.sql, identity_is_frozen.sql and
-- modules/exchange/sql/exchange_claim_quotes.sql.
-- identity_frozen_accounts: the account `p_user_id` as one row when it is frozen (back office or the
-- user's freeze link, docs/freeze-links.md: `users.frozen_at` set), no row otherwise or for an
-- unknown id. The identity module's one statement of the freeze rule in SQL; `identity_is_frozen`
-- asks it too.
-- Why a set-returning SQL function: PostgreSQL inlines such a function into the query that calls it
-- in FROM (SQL, STABLE, not STRICT, no SET clause, one SELECT), so a statement over many rows — the
-- swap claim, modules/exchange/sql/exchange_claim_quotes.sql — reads it as one index probe of users
-- per row inside its own plan. A scalar function whose body holds a subquery (`identity_is_frozen`)
-- is not inlined: each row ran its own executor (docs/exchange.md "The freeze read inline").
CREATE OR REPLACE FUNCTION identity_frozen_accounts(p_user_id uuid)
RETURNS TABLE (user_id uuid)
LANGUAGE sql
STABLE
AS $$
  SELECT u.id FROM users u WHERE u.id = p_user_id AND u.frozen_at IS NOT NULL;
$$;
--> statement-breakpoint
-- identity_is_frozen: whether the account `p_user_id` is frozen (identity_frozen_accounts holds the
-- rule) — the SQL twin of the identity service's `isFrozen` (modules/identity/identity.operator.ts),
-- for a decision about one account inside one SQL statement (the card authorisation,
-- modules/cards/sql/card_refusal.sql). False for an unknown id. A statement over many rows calls
-- identity_frozen_accounts in FROM instead, which is inlined.
CREATE OR REPLACE FUNCTION identity_is_frozen(p_user_id uuid)
RETURNS boolean
LANGUAGE sql
STABLE
AS $$
  SELECT EXISTS (SELECT 1 FROM identity_frozen_accounts(p_user_id));
$$;
--> statement-breakpoint
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
      AND NOT EXISTS (
        SELECT 1 FROM identity_frozen_accounts(
          CASE WHEN r.user_id ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' THEN r.user_id::uuid END
        )
      )
    RETURNING q.*;
END;
$$;
