import { bigserial, bigint, date, index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { createdAt } from '../../platform/db/columns.ts';

/**
 * Proof-of-liabilities snapshots (docs/liabilities.md): one per UTC day, built by the
 * daily job in one transaction over the ledger. `assets` fixes the order of every sum list; sums and
 * balances are minor units as decimal strings (jsonb arrays, aligned with `assets`).
 */
export const liabilitiesSnapshots = pgTable('liabilities_snapshots', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  /** The UTC day of the job's period; one snapshot per day. */
  snapshotDate: date('snapshot_date', { mode: 'string' }).notNull().unique(),
  /** The tree's root hash (hex). */
  rootHash: text('root_hash').notNull(),
  assets: jsonb('assets').$type<string[]>().notNull(),
  /** The root's sums: the total of every user's balances per asset. */
  rootSums: jsonb('root_sums').$type<string[]>().notNull(),
  /** The ledger's liabilities per asset at the snapshot (users, trusts, released trusts owed). */
  ledgerLiabilities: jsonb('ledger_liabilities').$type<string[]>().notNull(),
  /** What custody (the hot wallet accounts) held per asset at the snapshot. */
  holdings: jsonb('holdings').$type<string[]>().notNull(),
  leafCount: integer('leaf_count').notNull(),
  createdAt: createdAt(),
});

/**
 * The leaves of a snapshot, one per user: the user's salt (given only to that user, in their proof),
 * their balances, and the leaf's place in the tree (leaves are ordered by the salted user tag).
 * Kept so a user's proof can be rebuilt for any published snapshot.
 */
export const liabilitiesLeaves = pgTable(
  'liabilities_leaves',
  {
    snapshotId: bigint('snapshot_id', { mode: 'number' })
      .notNull()
      .references(() => liabilitiesSnapshots.id),
    userId: text('user_id').notNull(),
    leafIndex: integer('leaf_index').notNull(),
    /** 32 hex characters (16 random bytes), new for every user in every snapshot. */
    salt: text('salt').notNull(),
    balances: jsonb('balances').$type<string[]>().notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.snapshotId, table.userId] }),
    index('liabilities_leaves_snapshot_index_idx').on(table.snapshotId, table.leafIndex),
  ],
);
