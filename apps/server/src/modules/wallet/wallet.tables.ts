import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  index,
  integer,
  numeric,
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
 * Coins the wallet holds. `precision` must equal the asset table of
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
 * A network a coin moves on, with its withdrawal limits and fee in the coin's
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
    /** Confirmations it needs to be credited ("k of N"), as its source said when first seen; null on older rows and INTERNAL ones. */
    confirmationsRequired: integer('confirmations_required'),
    /** 'INTERNAL' | 'OUTER'. */
    type: text('type').notNull(),
    /** 'PENDING' | 'CREDITED' | 'FROZEN' (source on a sanctions list: held in SUSPENSE until released). */
    status: text('status').notNull(),
    /** Where the coins came from, when custody reports it (deposit-source screening). */
    fromAddress: text('from_address'),
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
 * Withdrawals (status 0 waiting, 1 processing, 2 success, 3 failure,
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
    /**
     * USD value of `amount_minor` at request time (2 decimals, rounded up), counted against the
     * withdrawal limits (docs/kyc.md "Withdrawal limits"); null on rows made before the limits existed (counted as 0).
     */
    usdValue: numeric('usd_value', { precision: 38, scale: 2 }),
    /** The `Idempotency-Key` header of the request, with the SHA-256 of its body. */
    idempotencyKey: text('idempotency_key'),
    requestHash: text('request_hash').notNull(),
    /** The operator who last moved it (email), for the audit trail. */
    operatorEmail: text('operator_email'),
    /**
     * The finance operator (email) who gave a large withdrawal (USD value over LARGE_WITHDRAWAL_USD)
     * its second approval, and when; a different operator then processes it.
     */
    approvedBy: text('approved_by'),
    approvedAt: timestamp('approved_at', { withTimezone: true, mode: 'date' }),
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

/** Saved withdrawal addresses (label 4–50 characters, network). */
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
 * Destinations that burn or lose funds on a network: zero/burn addresses and the
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

/** A USD amount with 2 decimals, read and written as an exact decimal string. */
const usdColumn = (name: string) => numeric(name, { precision: 38, scale: 2 });

/**
 * Withdrawal limits per identity level, in USD: per rolling 24 hours and per calendar
 * month (Hong Kong time). Seeded at start with the defaults of `wallet.limits.ts` (existing rows,
 * perhaps edited by operators, stay); changed by admins through `PUT /api/ops/withdrawal-limits/:level`.
 */
export const withdrawalLimits = pgTable(
  'withdrawal_limits',
  {
    kycLevel: integer('kyc_level').primaryKey(),
    usdPer24h: usdColumn('usd_per_24h').notNull(),
    usdPerMonth: usdColumn('usd_per_month').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }),
    /** The operator (email) of the last change; null for the seeded default. */
    updatedBy: text('updated_by'),
  },
  (table) => [check('withdrawal_limits_positive', sql`${table.usdPer24h} > 0 AND ${table.usdPerMonth} > 0`)],
);

/** Every change of a withdrawal limit (the audit of the limits): who, when, the old and the new values. */
export const withdrawalLimitChanges = pgTable('withdrawal_limit_changes', {
  id: serial('id').primaryKey(),
  kycLevel: integer('kyc_level').notNull(),
  operatorEmail: text('operator_email').notNull(),
  oldUsdPer24h: usdColumn('old_usd_per_24h'),
  oldUsdPerMonth: usdColumn('old_usd_per_month'),
  newUsdPer24h: usdColumn('new_usd_per_24h').notNull(),
  newUsdPerMonth: usdColumn('new_usd_per_month').notNull(),
  createdAt: createdAt(),
});

/**
 * Hits of address screening (KYT) for operators to decide: a refused withdrawal or
 * address-book entry (kind 'withdrawal' | 'address_book', no reference: nothing was recorded) or a
 * deposit from a listed source (kind 'deposit', reference = the deposit id, one alert per deposit).
 * status 'open' → 'released' | 'confirmed', once (one conditional UPDATE), with who, when and a note.
 */
export const screeningAlerts = pgTable(
  'screening_alerts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id').notNull(),
    kind: text('kind').notNull(),
    network: text('network').notNull(),
    address: text('address').notNull(),
    listName: text('list_name').notNull(),
    referenceId: text('reference_id'),
    status: text('status').notNull().default('open'),
    decidedBy: text('decided_by'),
    decidedAt: timestamp('decided_at', { withTimezone: true, mode: 'date' }),
    note: text('note'),
    createdAt: createdAt(),
  },
  (table) => [
    unique('screening_alerts_kind_reference_key').on(table.kind, table.referenceId),
    index('screening_alerts_status_created_idx').on(table.status, table.createdAt),
    check('screening_alerts_kind_known', sql`${table.kind} IN ('withdrawal', 'address_book', 'deposit')`),
    check('screening_alerts_status_known', sql`${table.status} IN ('open', 'released', 'confirmed')`),
  ],
);
