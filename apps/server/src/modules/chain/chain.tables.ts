import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  check,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, minorAmount } from '../../platform/db/columns.ts';

/**
 * Where the watcher of one chain stands: the last block it processed (number and hash). Written in
 * the transaction that recorded and credited that block's deposits, so a watcher killed at any
 * point resumes at the block after the last committed one, skipping and repeating nothing.
 */
export const chainCursors = pgTable('chain_cursors', {
  /** EIP-155 chain id (1 Ethereum mainnet, 31337 Anvil). */
  chainId: integer('chain_id').primaryKey(),
  blockNumber: bigint('block_number', { mode: 'number' }).notNull(),
  blockHash: text('block_hash').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
});

/**
 * The recent blocks the watcher processed, with their parent hash: a parent that no longer
 * matches is a reorganisation, walked back over these rows to the common ancestor. Rows older than
 * the kept window (`CHAIN_BLOCKS_KEPT`) are deleted as the cursor moves.
 */
export const chainBlocks = pgTable(
  'chain_blocks',
  {
    chainId: integer('chain_id').notNull(),
    blockNumber: bigint('block_number', { mode: 'number' }).notNull(),
    blockHash: text('block_hash').notNull(),
    parentHash: text('parent_hash').notNull(),
  },
  (table) => [primaryKey({ columns: [table.chainId, table.blockNumber] })],
);

/**
 * Every incoming transfer the watcher found to one of our deposit addresses, keyed by
 * (chain id, tx hash, log index; -1 for a transaction's own ETH value).
 *
 * status: PENDING (waiting for confirmations; `deposit_id` is the wallet's PENDING deposit),
 * CREDITED (the wallet credited or froze it), REVIEW (held for finance, nothing credited: below the
 * coin's minimum or an unknown token, `reason`), ORPHANED (its block left the chain before it was
 * credited: the pending deposit was dropped), REORGED_AFTER_CREDIT (its block left the chain after
 * it was credited: an alarm in `chain_reorg_alarms`), REJECTED (a review item finance closed without
 * crediting it). A review item finance releases becomes CREDITED with its wallet deposit.
 */
export const chainDeposits = pgTable(
  'chain_deposits',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    chainId: integer('chain_id').notNull(),
    txHash: text('tx_hash').notNull(),
    logIndex: integer('log_index').notNull(),
    blockNumber: bigint('block_number', { mode: 'number' }).notNull(),
    blockHash: text('block_hash').notNull(),
    /** The ERC-20 contract, or null for ETH. */
    tokenAddress: text('token_address'),
    /** Null for an unknown token. */
    coinCode: text('coin_code'),
    network: text('network').notNull(),
    toAddress: text('to_address').notNull(),
    fromAddress: text('from_address').notNull(),
    userId: uuid('user_id').notNull(),
    /** The amount in the token's own base units (wei for ETH), as the chain says. */
    amountRaw: numeric('amount_raw', { precision: 78, scale: 0 }).notNull(),
    /** The amount in minor units of `coin_code` (null for an unknown token). */
    amountMinor: minorAmount('amount_minor'),
    /** Confirmations it needs, fixed when it is found. */
    confirmationsRequired: integer('confirmations_required').notNull(),
    status: text('status').notNull(),
    /** Why it is held for review: 'below_minimum' | 'unknown_token' | 'dust'. */
    reason: text('reason'),
    depositId: bigint('deposit_id', { mode: 'number' }),
    /** A large review item: the finance operator (email) who gave the first approval, and when. */
    reviewApprovedBy: text('review_approved_by'),
    reviewApprovedAt: timestamp('review_approved_at', { withTimezone: true, mode: 'date' }),
    /** A review item: the finance operator (email) who released or rejected it, when, and why. */
    reviewedBy: text('reviewed_by'),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true, mode: 'date' }),
    reviewNote: text('review_note'),
    createdAt: createdAt(),
  },
  (table) => [
    unique('chain_deposits_chain_tx_log_key').on(table.chainId, table.txHash, table.logIndex),
    index('chain_deposits_status_block_idx').on(table.chainId, table.status, table.blockNumber),
    check(
      'chain_deposits_status_known',
      sql`${table.status} IN ('PENDING', 'CREDITED', 'REVIEW', 'ORPHANED', 'REORGED_AFTER_CREDIT', 'REJECTED')`,
    ),
  ],
);

/**
 * A credited deposit whose block left the canonical chain (a reorganisation deeper than its
 * confirmations): never reversed silently. The amount still in the user's available balance
 * (`held_minor`, at most the deposit) was moved to USER_FROZEN by entry `hold_entry_id`; finance
 * acknowledges it (status open → acknowledged) and resolves it once (→ resolved): RELEASE_HOLD gives
 * the held amount back to the user's available balance (entry `release_entry_id`), RECOVER returns it
 * to the hot wallet.
 */
export const chainReorgAlarms = pgTable(
  'chain_reorg_alarms',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    chainId: integer('chain_id').notNull(),
    chainDepositId: bigint('chain_deposit_id', { mode: 'number' }).notNull(),
    depositId: bigint('deposit_id', { mode: 'number' }).notNull(),
    userId: uuid('user_id').notNull(),
    coinCode: text('coin_code').notNull(),
    amountMinor: minorAmount('amount_minor').notNull(),
    heldMinor: minorAmount('held_minor').notNull(),
    holdEntryId: bigint('hold_entry_id', { mode: 'number' }),
    orphanedBlockNumber: bigint('orphaned_block_number', { mode: 'number' }).notNull(),
    orphanedBlockHash: text('orphaned_block_hash').notNull(),
    status: text('status').notNull().default('open'),
    acknowledgedBy: text('acknowledged_by'),
    acknowledgedAt: timestamp('acknowledged_at', { withTimezone: true, mode: 'date' }),
    resolvedBy: text('resolved_by'),
    resolvedAt: timestamp('resolved_at', { withTimezone: true, mode: 'date' }),
    /** 'RELEASE_HOLD' | 'RECOVER' once resolved. */
    resolution: text('resolution'),
    note: text('note'),
    releaseEntryId: bigint('release_entry_id', { mode: 'number' }),
    createdAt: createdAt(),
  },
  (table) => [
    unique('chain_reorg_alarms_chain_deposit_key').on(table.chainDepositId),
    check('chain_reorg_alarms_status_known', sql`${table.status} IN ('open', 'acknowledged', 'resolved')`),
  ],
);
