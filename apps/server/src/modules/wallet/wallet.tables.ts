import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, minorAmount } from '../../platform/db/columns.ts';

/**
 * Coins the wallet holds (spec §3 Wallet coin). `precision` must equal the asset table of
 * `@meridian/contracts/money`; the seed writes it from there.
 */
export const coins = pgTable('coins', {
  coinCode: text('coin_code').primaryKey(),
  fullName: text('full_name').notNull(),
  iconPath: text('icon_path').notNull(),
  precision: integer('precision').notNull(),
  sortOrder: integer('sort_order').notNull().default(0),
  isEnabled: boolean('is_enabled').notNull().default(true),
  createdAt: createdAt(),
});

/**
 * A network a coin moves on (spec §3 Network), with its withdrawal limits and fee in the coin's
 * minor units and the confirmations a deposit needs before it is credited.
 */
export const coinNetworks = pgTable(
  'coin_networks',
  {
    id: serial('id').primaryKey(),
    coinCode: text('coin_code')
      .notNull()
      .references(() => coins.coinCode),
    network: text('network').notNull(),
    withdrawMinMinor: minorAmount('withdraw_min_minor').notNull(),
    withdrawMaxMinor: minorAmount('withdraw_max_minor').notNull(),
    withdrawFeeMinor: minorAmount('withdraw_fee_minor').notNull(),
    confirmationsRequired: integer('confirmations_required').notNull(),
    isDepositEnabled: boolean('is_deposit_enabled').notNull().default(true),
    isWithdrawEnabled: boolean('is_withdraw_enabled').notNull().default(true),
    createdAt: createdAt(),
  },
  (table) => [unique('coin_networks_coin_network_key').on(table.coinCode, table.network)],
);

/**
 * The next unused derivation index per chain: taken with one `UPDATE … RETURNING`, so two users can
 * never get the same index, and an index is never reused.
 */
export const hdIndexCounters = pgTable('hd_index_counters', {
  chain: text('chain').primaryKey(),
  nextIndex: integer('next_index').notNull(),
});

/** A user's deposit address on one chain (`wallet.addresses.ts`: bitcoin, evm, tron), derived watch-only. */
export const depositAddresses = pgTable(
  'deposit_addresses',
  {
    id: serial('id').primaryKey(),
    userId: uuid('user_id').notNull(),
    chain: text('chain').notNull(),
    derivationIndex: integer('derivation_index').notNull(),
    address: text('address').notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    unique('deposit_addresses_user_chain_key').on(table.userId, table.chain),
    unique('deposit_addresses_chain_index_key').on(table.chain, table.derivationIndex),
    unique('deposit_addresses_address_key').on(table.address),
  ],
);

/**
 * Deposits reported by custody (type OUTER) or made by another Meridian user (type INTERNAL).
 * Credited exactly once: unique on (network, tx_hash, output_index), status PENDING → CREDITED in
 * the transaction that posts `entry_id`.
 */
export const deposits = pgTable(
  'deposits',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id').notNull(),
    coinCode: text('coin_code').notNull(),
    network: text('network').notNull(),
    address: text('address').notNull(),
    txHash: text('tx_hash').notNull(),
    outputIndex: integer('output_index').notNull(),
    amountMinor: minorAmount('amount_minor').notNull(),
    confirmations: integer('confirmations').notNull(),
    /** 'INTERNAL' | 'OUTER' (spec §4). */
    type: text('type').notNull(),
    /** 'PENDING' | 'CREDITED'. */
    status: text('status').notNull(),
    entryId: bigint('entry_id', { mode: 'number' }),
    createdAt: createdAt(),
    creditedAt: timestamp('credited_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [
    unique('deposits_network_tx_output_key').on(table.network, table.txHash, table.outputIndex),
    index('deposits_user_created_idx').on(table.userId, table.createdAt),
    check('deposits_amount_positive', sql`${table.amountMinor} > 0`),
  ],
);

/** Custody webhook deliveries already accepted: each delivery id is processed once. */
export const custodyDeliveries = pgTable('custody_deliveries', {
  deliveryId: text('delivery_id').primaryKey(),
  receivedAt: createdAt(),
});

/**
 * Withdrawals (spec §3 withdraw record, §4 status 0 waiting, 1 processing, 2 success, 3 failure,
 * 4 cancel). `amount_minor` reaches the address; `fee_minor` is charged on top (0 for INTERNAL).
 * A transition is one `UPDATE … WHERE status = <expected>` in the transaction of its ledger entry.
 */
export const withdrawals = pgTable(
  'withdrawals',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id').notNull(),
    coinCode: text('coin_code').notNull(),
    network: text('network').notNull(),
    address: text('address').notNull(),
    amountMinor: minorAmount('amount_minor').notNull(),
    feeMinor: minorAmount('fee_minor').notNull(),
    /** 'INTERNAL' | 'OUTER'. */
    type: text('type').notNull(),
    status: integer('status').notNull(),
    recipientUserId: uuid('recipient_user_id'),
    txHash: text('tx_hash'),
    failureReason: text('failure_reason'),
    /** The `Idempotency-Key` header of the request, with the SHA-256 of its body. */
    idempotencyKey: text('idempotency_key'),
    requestHash: text('request_hash').notNull(),
    /** The operator who last moved it (email), for the audit trail. */
    operatorEmail: text('operator_email'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [
    unique('withdrawals_user_idempotency_key').on(table.userId, table.idempotencyKey),
    index('withdrawals_user_created_idx').on(table.userId, table.createdAt),
    index('withdrawals_status_idx').on(table.status),
    check('withdrawals_amount_positive', sql`${table.amountMinor} > 0 AND ${table.feeMinor} >= 0`),
    check('withdrawals_status_known', sql`${table.status} BETWEEN 0 AND 4`),
  ],
);

/** Saved withdrawal addresses (spec §3 withdraw address: label 4–50 characters, network). */
export const addressBook = pgTable(
  'address_book',
  {
    id: serial('id').primaryKey(),
    userId: uuid('user_id').notNull(),
    network: text('network').notNull(),
    address: text('address').notNull(),
    label: text('label').notNull(),
    createdAt: createdAt(),
    /** In whitelist mode the address can be used from this time (24 hours after it was added). */
    usableAt: timestamp('usable_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (table) => [unique('address_book_user_network_address_key').on(table.userId, table.network, table.address)],
);

/**
 * Destinations that burn or lose funds on a network (issue 14 item 7): zero/burn addresses and the
 * token contracts of the network's own coins. Editable data (seeded by `wallet.seed.ts`, operators
 * may add rows); a withdrawal, its dry run and the address book refuse them with a field error on
 * `address`. `address` is stored in the canonical form of `normalizeAddress`.
 */
export const blockedDestinations = pgTable(
  'blocked_destinations',
  {
    network: text('network').notNull(),
    address: text('address').notNull(),
    /** Why it is refused, for operators (e.g. "zero address", "USDT token contract"). */
    reason: text('reason').notNull(),
  },
  (table) => [primaryKey({ columns: [table.network, table.address] })],
);
