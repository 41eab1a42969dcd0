import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  index,
  jsonb,
  pgTable,
  text,
  unique,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { createdAt, minorAmount } from '../../platform/db/columns.ts';

/**
 * Ledger accounts (docs/architecture.md "Money"). One row per (owner kind, owner id, account type, asset), created
 * lazily by the first entry that touches it. `balance_minor` is the running sum of the account's
 * postings in minor units of `asset`, updated in the same transaction as the postings.
 *
 * The CHECK constraint is the database's own guard behind the posting function's conditional
 * update: only accounts created with `is_negative_allowed` (platform accounts) may go below zero.
 */
export const ledgerAccounts = pgTable(
  'ledger_accounts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** 'user' or 'platform'. */
    ownerKind: text('owner_kind').notNull(),
    /** The user id, or `platform` (`platform:<shard>` for a sharded platform account, ledger.types). */
    ownerId: text('owner_id').notNull(),
    /** An `AccountType` of `ledger.types.ts`. */
    type: text('type').notNull(),
    asset: text('asset').notNull(),
    balanceMinor: minorAmount('balance_minor')
      .notNull()
      .default(sql`0`),
    isNegativeAllowed: boolean('is_negative_allowed').notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    unique('ledger_accounts_owner_type_asset_key').on(table.ownerKind, table.ownerId, table.type, table.asset),
    check('ledger_accounts_balance_non_negative', sql`${table.isNegativeAllowed} OR ${table.balanceMinor} >= 0`),
    check('ledger_accounts_user_never_negative', sql`${table.ownerKind} <> 'user' OR NOT ${table.isNegativeAllowed}`),
  ],
);

/**
 * Journal entries: append-only, never updated or deleted. `idempotency_key` is unique and stored
 * with the SHA-256 of the canonical request (`request_hash`, hex) so that a replay returns the first
 * entry and a different request under the same key is refused (formancehq/ledger `internal/log.go`).
 * `reverses_entry_id` is unique, so an entry is reversed at most once; its index holds only the
 * reversals (partial, `IS NOT NULL`, migration 0071): the NULL of every other entry was an index
 * entry written and descended to by each posting and looked up by nothing.
 */
export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** An `EntryKind` of `ledger.types.ts`. */
    kind: text('kind').notNull(),
    /** What the entry is about, e.g. `withdrawal:42`; indexed for look-ups, not unique. */
    reference: text('reference').notNull(),
    idempotencyKey: text('idempotency_key').notNull(),
    requestHash: text('request_hash').notNull(),
    reversesEntryId: bigint('reverses_entry_id', { mode: 'number' }),
    metadata: jsonb('metadata').$type<Record<string, string>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (table) => [
    unique('ledger_entries_idempotency_key_key').on(table.idempotencyKey),
    uniqueIndex('ledger_entries_reverses_entry_id_key')
      .on(table.reversesEntryId)
      .where(sql`${table.reversesEntryId} IS NOT NULL`),
    index('ledger_entries_reference_idx').on(table.reference),
  ],
);

/**
 * Postings: the signed movements of one entry, `amount_minor` in minor units of `asset` (positive
 * credits the account, negative debits it). Per entry and asset they sum to zero.
 */
export const ledgerPostings = pgTable(
  'ledger_postings',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    // References ledger_entries.id and ledger_accounts.id, checked once per INSERT statement by the
    // trigger `ledger_postings_refs_check` (migration 0051) instead of per-row foreign keys — except
    // ledger_post's own insert, whose references the function proves (migration 0068); entries and
    // accounts are never deleted (docs/ledger.md "References").
    entryId: bigint('entry_id', { mode: 'number' }).notNull(),
    accountId: bigint('account_id', { mode: 'number' }).notNull(),
    asset: text('asset').notNull(),
    amountMinor: minorAmount('amount_minor').notNull(),
  },
  (table) => [
    index('ledger_postings_entry_idx').on(table.entryId),
    index('ledger_postings_account_idx').on(table.accountId),
    check('ledger_postings_amount_non_zero', sql`${table.amountMinor} <> 0`),
  ],
);
