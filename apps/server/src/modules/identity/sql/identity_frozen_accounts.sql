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
