-- fund_holdings.ledger_account_id: the id of a current holding's USER_FUND USD ledger account, filled
-- by the first monthly payout that pays the holding (null until then; no backfill: adding a nullable
-- column is a catalog change, nothing is rewritten). The payout's fanout then finds each account
-- through ledger_accounts' primary key (bigint) instead of the owner key (four text columns), and
-- checks that the account is the holding owner's; not a foreign key, since accounts are never
-- deleted nor renumbered (0051, 0054). docs/funds.md "Benchmark".
ALTER TABLE "fund_holdings" ADD COLUMN "ledger_account_id" bigint;
