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
