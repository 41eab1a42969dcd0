/**
 * The ledger's public surface: functions taking the caller's database handle or transaction (no
 * service object). One file per concern, re-exported here so other modules import this file only:
 * `ledger.post.ts` (one entry: `postEntry`, `reverseEntry`), `ledger.batch.ts` (`postEntries`, group
 * commit), `ledger.balances.ts` (balances, liabilities, histories, the closure guard),
 * `ledger.entries.ts` (request checks and stored entries, used inside the module),
 * `ledger.fanout.ts`, `ledger.statements.ts` and `ledger.invariants.ts`. docs/ledger.md.
 */
export { checkLedgerInvariants, type InvariantReport, type InvariantResult } from './ledger.invariants.ts';
export { FANOUT_ROWS_MAX, type FanoutInput, type FanoutResult, postFanout } from './ledger.fanout.ts';
export {
  STATEMENT_POSTINGS_MAX,
  type StatementActivity,
  statementActivity,
  statementAccounts,
  type StatementLedgerAccount,
  type StatementOwner,
  type StatementPosting,
  type StatementEntryFeeMinor,
  statementEntryFees,
  type StatementLoanEntry,
  statementLoanEntries,
} from './ledger.statements.ts';
export { hashEntryRequest, POSTINGS_PER_ENTRY_MAX } from './ledger.entries.ts';
export { postEntry, reverseEntry, type ReverseOptions, SQLSTATE_INSUFFICIENT_BALANCE } from './ledger.post.ts';
export { ENTRIES_PER_BATCH_MAX, LedgerBatchKeyTakenError, postEntries } from './ledger.batch.ts';
export {
  type AccountBalance,
  accountBalance,
  entriesByIds,
  ledgerHoldingsChecker,
  liabilitiesAndHoldings,
  type LiabilityLine,
  type OwnerLiability,
  ownerLiabilitiesByAsset,
  platformBalance,
  userBalances,
  userHoldings,
  type UserPostingItem,
  type UserPostingsFilter,
  userPostingsPage,
} from './ledger.balances.ts';
