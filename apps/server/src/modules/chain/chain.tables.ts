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
  uniqueIndex,
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

/** An amount in a token's base units (wei for ETH, gas prices in wei): `numeric(78,0)` as `bigint`. */
function rawAmount(name: string) {
  return numeric(name, { precision: 78, scale: 0, mode: 'bigint' });
}

/**
 * The hot wallet of a chain: the account Meridian signs withdrawals from. `key_sealed` is its
 * private key sealed with CHAIN_VAULT_KEY (AES-256-GCM, `SecretBox`), null when a KMS signs.
 * `next_nonce` is the one nonce sequence of the account: taken with the row locked FOR UPDATE in
 * the transaction that records a withdrawal's broadcast intent, so every nonce is used once and
 * none is skipped.
 */
export const chainHotWallets = pgTable(
  'chain_hot_wallets',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    chainId: integer('chain_id').notNull(),
    /** Checksummed 0x… address. */
    address: text('address').notNull(),
    keySealed: text('key_sealed'),
    nextNonce: bigint('next_nonce', { mode: 'number' }).notNull().default(0),
    createdAt: createdAt(),
  },
  (table) => [unique('chain_hot_wallets_chain_key').on(table.chainId)],
);

/**
 * One withdrawal sent on chain from the hot wallet (wallet withdrawal `withdrawal_id`, processing):
 * its nonce, the transfer (`token_address` null for ETH), the fees of the latest transaction sent
 * for it, and where it stands.
 *
 * status: SIGNED (nonce assigned and fees chosen; not yet accepted by the node), BROADCAST (in
 * the node's pool), MINED (in a block, success, fewer than N confirmations), CONFIRMED (N reached:
 * the wallet withdrawal succeeded with `tx_hash`), REVERTED (mined and reverted: the wallet
 * withdrawal failed, the funds returned).
 */
export const chainWithdrawals = pgTable(
  'chain_withdrawals',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    withdrawalId: bigint('withdrawal_id', { mode: 'number' }).notNull(),
    /** The withdrawal's owner (the user's link to the explorer). */
    userId: uuid('user_id').notNull(),
    chainId: integer('chain_id').notNull(),
    hotWalletId: bigint('hot_wallet_id', { mode: 'number' }).notNull(),
    nonce: bigint('nonce', { mode: 'number' }).notNull(),
    coinCode: text('coin_code').notNull(),
    tokenAddress: text('token_address'),
    toAddress: text('to_address').notNull(),
    amountRaw: rawAmount('amount_raw').notNull(),
    gasLimit: bigint('gas_limit', { mode: 'bigint' }).notNull(),
    maxFeePerGasWei: rawAmount('max_fee_per_gas_wei').notNull(),
    maxPriorityFeePerGasWei: rawAmount('max_priority_fee_per_gas_wei').notNull(),
    /** The latest transaction sent (or the one mined). */
    txHash: text('tx_hash'),
    status: text('status').notNull(),
    /** How many transactions were signed for this nonce (1 + replacements). */
    attempts: integer('attempts').notNull().default(0),
    broadcastAt: timestamp('broadcast_at', { withTimezone: true, mode: 'date' }),
    minedBlock: bigint('mined_block', { mode: 'number' }),
    failureReason: text('failure_reason'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [
    unique('chain_withdrawals_withdrawal_key').on(table.withdrawalId),
    unique('chain_withdrawals_wallet_nonce_key').on(table.hotWalletId, table.nonce),
    index('chain_withdrawals_status_idx').on(table.chainId, table.status),
    check(
      'chain_withdrawals_status_known',
      sql`${table.status} IN ('SIGNED', 'BROADCAST', 'MINED', 'CONFIRMED', 'REVERTED')`,
    ),
  ],
);

/**
 * Every transaction signed for a chain withdrawal (the first and each fee replacement, same
 * nonce), with its raw bytes so it can be sent again; any of them may be the one mined.
 */
export const chainWithdrawalTxs = pgTable(
  'chain_withdrawal_txs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    chainWithdrawalId: bigint('chain_withdrawal_id', { mode: 'number' }).notNull(),
    txHash: text('tx_hash').notNull(),
    rawTx: text('raw_tx').notNull(),
    maxFeePerGasWei: rawAmount('max_fee_per_gas_wei').notNull(),
    maxPriorityFeePerGasWei: rawAmount('max_priority_fee_per_gas_wei').notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    unique('chain_withdrawal_txs_hash_key').on(table.txHash),
    index('chain_withdrawal_txs_withdrawal_idx').on(table.chainWithdrawalId),
  ],
);

/**
 * A back-office item about the hot wallet's balance of a coin: `low` (below EVM_HOT_WALLET_MIN:
 * withdrawals of the coin queue) or `excess` (above EVM_HOT_WALLET_MAX: move the excess to cold
 * storage). At most one open per (wallet, coin, kind); resolved when the balance is back in range.
 * Amounts in minor units of the coin.
 */
export const chainHotWalletAlerts = pgTable(
  'chain_hot_wallet_alerts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    hotWalletId: bigint('hot_wallet_id', { mode: 'number' }).notNull(),
    coinCode: text('coin_code').notNull(),
    kind: text('kind').notNull(),
    balanceMinor: minorAmount('balance_minor').notNull(),
    limitMinor: minorAmount('limit_minor').notNull(),
    status: text('status').notNull().default('open'),
    createdAt: createdAt(),
    resolvedAt: timestamp('resolved_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [
    uniqueIndex('chain_hot_wallet_alerts_open_key')
      .on(table.hotWalletId, table.coinCode, table.kind)
      .where(sql`${table.status} = 'open'`),
    check('chain_hot_wallet_alerts_kind_known', sql`${table.kind} IN ('low', 'excess')`),
    check('chain_hot_wallet_alerts_status_known', sql`${table.status} IN ('open', 'resolved')`),
  ],
);
