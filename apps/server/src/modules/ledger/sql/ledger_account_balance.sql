-- ledger_account_balance: the balance of one account in minor units of its asset, 0 when the
-- account was never touched — the SQL twin of `accountBalance` (modules/ledger/ledger.service.ts),
-- for SQL functions of other modules that decide on a balance in their own statement (the card
-- authorisation, modules/cards/sql/card_authorize.sql). One probe of the unique index
-- ledger_accounts_owner_type_asset_key. Reads only; the caller locks what it needs.
CREATE OR REPLACE FUNCTION ledger_account_balance(p_owner_kind text, p_owner_id text, p_type text, p_asset text)
RETURNS numeric
LANGUAGE sql
STABLE
AS $$
  SELECT coalesce(
    (SELECT a.balance_minor FROM ledger_accounts a
     WHERE a.owner_kind = p_owner_kind AND a.owner_id = p_owner_id AND a.type = p_type AND a.asset = p_asset),
    0);
$$;
