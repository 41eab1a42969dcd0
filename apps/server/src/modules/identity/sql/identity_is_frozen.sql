-- identity_is_frozen: whether the account `p_user_id` is frozen (back office or the user's freeze
-- link, docs/freeze-links.md: `users.frozen_at` set) — the SQL twin of the identity service's `isFrozen`
-- (modules/identity/identity.operator.ts), for decisions taken inside one SQL statement (the card
-- authorisation, modules/cards/sql/card_refusal.sql). False for an unknown id.
CREATE OR REPLACE FUNCTION identity_is_frozen(p_user_id uuid)
RETURNS boolean
LANGUAGE sql
STABLE
AS $$
  SELECT EXISTS (SELECT 1 FROM users u WHERE u.id = p_user_id AND u.frozen_at IS NOT NULL);
$$;
