import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { createdAt, minorAmount } from '../../platform/db/columns.ts';

/**
 * Fund products (fund model). Amount rules in USD cents. `period_days` -1 for the
 * current fund. A fixed product has a raise window (Hong Kong dates, both days included), an
 * interest date and a maturity date (interest date + period).
 */
export const fundProducts = pgTable('fund_products', {
  id: text('id').primaryKey(),
  type: text('type', { enum: ['CURRENT', 'FIXED'] }).notNull(),
  nameEn: text('name_en').notNull(),
  nameZhHk: text('name_zh_hk').notNull(),
  periodDays: integer('period_days').notNull(),
  raiseStartDate: date('raise_start_date', { mode: 'string' }),
  raiseEndDate: date('raise_end_date', { mode: 'string' }),
  interestDate: date('interest_date', { mode: 'string' }),
  maturityDate: date('maturity_date', { mode: 'string' }),
  minMinor: minorAmount('min_minor').notNull(),
  maxMinor: minorAmount('max_minor').notNull(),
  /** Most one user may hold of the product (pending wires included). */
  limitMinor: minorAmount('limit_minor').notNull(),
  /** Smallest redemption (current fund); null where users cannot redeem. */
  redeemMinMinor: minorAmount('redeem_min_minor'),
  isActive: boolean('is_active').notNull().default(true),
  sortOrder: integer('sort_order').notNull().default(0),
  createdAt: createdAt(),
});

/**
 * Rate tiers of a product: tier `tier_index` applies `annual_rate_bps` (1/100 of a percent per
 * year: 365 = 3.65 %) to the part of a holding up to `up_to_minor` USD cents above the previous
 * tier's bound; the last tier has no bound (null).
 */
export const fundRateTiers = pgTable(
  'fund_rate_tiers',
  {
    productId: text('product_id')
      .notNull()
      .references(() => fundProducts.id),
    tierIndex: integer('tier_index').notNull(),
    upToMinor: minorAmount('up_to_minor'),
    annualRateBps: integer('annual_rate_bps').notNull(),
  },
  (table) => [primaryKey({ columns: [table.productId, table.tierIndex] })],
);

/**
 * Holdings: one CURRENT row per user (its shares mirror the user's ledger USER_FUND balance) and one
 * FIXED row per fixed order (its principal is part of USER_FUND_FIXED). The day columns let the
 * set-based accrual find what a holding held during a day without reading the ledger: the first
 * change on a Hong Kong day sets `day_start_date` to that day and `day_start_shares_minor` (and
 * `day_min_shares_minor`) to the shares before it; each change lowers `day_min_shares_minor` to the
 * new shares when lower; the day it replaces is kept as `prev_day_date` with its minimum. Accrued interest not yet paid is `unsettled_minor`
 * (whole cents, as in the ledger); the part of it accrued in `accrual_month` (the month of the last
 * accrued day) is `unsettled_month_minor`, so a payout pays only the months before its own; the
 * sub-cent part of the interest accrued so far, not yet a whole cent, is `interest_carry_e8`
 * (10⁻⁸ USD, below 1 cent: decision 0008); `last_payout_minor` is what the last payout paid. Stored with fillfactor 50 (migration 0032): the daily accrual
 * and the monthly payout update every row, and room on the page lets PostgreSQL update in place
 * (HOT) without touching the indexes.
 */
export const fundHoldings = pgTable(
  'fund_holdings',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: text('user_id').notNull(),
    productId: text('product_id')
      .notNull()
      .references(() => fundProducts.id),
    kind: text('kind', { enum: ['CURRENT', 'FIXED'] }).notNull(),
    /** The fixed order's subscription (fund_orders.id); null for CURRENT. */
    orderId: bigint('order_id', { mode: 'number' }),
    sharesMinor: minorAmount('shares_minor')
      .notNull()
      .default(sql`0`),
    dayStartDate: date('day_start_date', { mode: 'string' }).notNull(),
    dayStartSharesMinor: minorAmount('day_start_shares_minor')
      .notNull()
      .default(sql`0`),
    dayMinSharesMinor: minorAmount('day_min_shares_minor')
      .notNull()
      .default(sql`0`),
    /** The day before the current `day_start_date` on which the holding changed, and its minimum then. */
    prevDayDate: date('prev_day_date', { mode: 'string' }),
    prevDayMinSharesMinor: minorAmount('prev_day_min_shares_minor')
      .notNull()
      .default(sql`0`),
    unsettledMinor: minorAmount('unsettled_minor')
      .notNull()
      .default(sql`0`),
    accrualMonth: text('accrual_month'),
    unsettledMonthMinor: minorAmount('unsettled_month_minor')
      .notNull()
      .default(sql`0`),
    /**
     * Interest accrued and not yet a whole cent, in 10⁻⁸ USD (1 cent = 1,000,000), 0 ≤ carry <
     * 1,000,000: carried from day to day and across payouts; each day's whole cents move into
     * `unsettled_minor` (`creditDayE8`, docs/decisions/0008-savings-accrual-precision.md). Not in
     * the ledger (its unit is the cent). A fixed order's carry at maturity is not paid (rounded down).
     */
    interestCarryE8: minorAmount('interest_carry_e8')
      .notNull()
      .default(sql`0`),
    /** Interest paid (current: monthly payouts; fixed: at maturity). */
    paidMinor: minorAmount('paid_minor')
      .notNull()
      .default(sql`0`),
    /** The month (YYYY-MM) whose payout this holding last received. */
    lastPayoutMonth: text('last_payout_month'),
    /** What that payout paid (USD cents; 0 before the first). */
    lastPayoutMinor: minorAmount('last_payout_minor')
      .notNull()
      .default(sql`0`),
    /**
     * The id of the owner's `USER_FUND` USD ledger account (current holdings), found by the first
     * payout that pays the holding; null before. The payout's fanout finds the account through
     * the primary key instead of the owner key (docs/funds.md "Benchmark"). Not a foreign key: the
     * fanout checks that the id is the owner's account, and accounts are never deleted nor renumbered.
     */
    ledgerAccountId: bigint('ledger_account_id', { mode: 'number' }),
    interestDate: date('interest_date', { mode: 'string' }),
    maturityDate: date('maturity_date', { mode: 'string' }),
    status: text('status', { enum: ['HOLDING', 'MATURED'] })
      .notNull()
      .default('HOLDING'),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('fund_holdings_current_user_key')
      .on(table.userId)
      .where(sql`kind = 'CURRENT'`),
    index('fund_holdings_user_idx').on(table.userId),
    // The maturity scan: fixed orders still held, by maturity day.
    index('fund_holdings_maturity_idx')
      .on(table.maturityDate)
      .where(sql`kind = 'FIXED' AND status = 'HOLDING'`),
    check('fund_holdings_interest_carry_check', sql`interest_carry_e8 >= 0 AND interest_carry_e8 < 1000000`),
  ],
);

/**
 * Accrued interest: one row per (holding, Hong Kong day) with interest, so a day is never accrued
 * twice for a holding however often the job runs. `amount_e8` is the day's interest in 10⁻⁸ USD
 * (rounded down at that precision); `amount_minor` the whole USD cents it credited to the holding's
 * unpaid interest and the ledger that day — the carry before plus `amount_e8`, whole cents — possibly
 * 0 (a row still marks the day done for that holding). Σ `amount_minor` is what payouts pay.
 * No backfill of `amount_e8`: a year of rows is hundreds of millions.
 */
export const fundAccruals = pgTable(
  'fund_accruals',
  {
    holdingId: bigint('holding_id', { mode: 'number' }).notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    userId: text('user_id').notNull(),
    kind: text('kind', { enum: ['CURRENT', 'FIXED'] }).notNull(),
    amountMinor: minorAmount('amount_minor').notNull(),
    /** Null on days accrued before migration 0057 (the day's interest was then `amount_minor`, whole cents). */
    amountE8: minorAmount('amount_e8'),
  },
  // Only the key: a user's rows are found through their holdings' ids (a second index cost a third
  // of the accrual's time in bench:accrual).
  (table) => [primaryKey({ columns: [table.holdingId, table.day] })],
);

/** Days whose accrual finished over every holding (the catch-up starts after the last one). */
export const fundAccrualDays = pgTable('fund_accrual_days', {
  day: date('day', { mode: 'string' }).primaryKey(),
  holdingCount: integer('holding_count').notNull(),
  totalMinor: minorAmount('total_minor').notNull(),
  finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/** Monthly payouts: one row per month (YYYY-MM) paid, written when the payout finished. */
export const fundPayouts = pgTable('fund_payouts', {
  month: text('month').primaryKey(),
  paidOn: date('paid_on', { mode: 'string' }).notNull(),
  holdingCount: integer('holding_count').notNull(),
  totalMinor: minorAmount('total_minor').notNull(),
  finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/**
 * The batches of the monthly payouts: one row per id batch of current holdings paid for `month`
 * (YYYY-MM), written in the batch's transaction with its journal entry (`entry_id`, the fanout
 * entry `fund-payout:<month>:<first>-<end>`). A payout writes no history row per holding: a
 * holding's INTEREST line of `month` is read from the batch covering its id
 * (`first_holding_id <= id < end_holding_id`) and its accruals before the month
 * (`funds.orders.ts` `orders`). `holding_count` and `total_minor` (USD cents) are what the batch paid.
 */
export const fundPayoutBatches = pgTable(
  'fund_payout_batches',
  {
    month: text('month').notNull(),
    firstHoldingId: bigint('first_holding_id', { mode: 'number' }).notNull(),
    endHoldingId: bigint('end_holding_id', { mode: 'number' }).notNull(),
    holdingCount: integer('holding_count').notNull(),
    totalMinor: minorAmount('total_minor').notNull(),
    entryId: bigint('entry_id', { mode: 'number' }).notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.month, table.firstHoldingId, table.endHoldingId] })],
);

/**
 * The fund history (`fund/v2/order`): subscriptions, redemptions, interest payouts and
 * maturities. `amount_minor` USD cents. A USD subscription is PENDING with a unique wire
 * `reference` until the wire is recorded; a USD redemption is PENDING until the wire is sent.
 * `(user_id, idempotency_key)` is unique, with the request's hash, for replays.
 */
export const fundOrders = pgTable(
  'fund_orders',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: text('user_id').notNull(),
    productId: text('product_id').notNull(),
    action: text('action', { enum: ['SUBSCRIBE', 'REDEEM', 'INTEREST', 'MATURITY'] }).notNull(),
    actionType: text('action_type', { enum: ['WALLET', 'USD', 'FUND'] }),
    coin: text('coin'),
    amountMinor: minorAmount('amount_minor').notNull(),
    interestMinor: minorAmount('interest_minor'),
    status: text('status', { enum: ['PENDING', 'HOLDING', 'SUCCESS', 'FAILED', 'MATURED'] }).notNull(),
    reference: text('reference'),
    bankAccountId: text('bank_account_id'),
    holdingId: bigint('holding_id', { mode: 'number' }),
    idempotencyKey: text('idempotency_key'),
    requestHash: text('request_hash'),
    createdAt: createdAt(),
    completedAt: timestamp('completed_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [
    unique('fund_orders_reference_key').on(table.reference),
    unique('fund_orders_user_idempotency_key').on(table.userId, table.idempotencyKey),
    index('fund_orders_user_created_idx').on(table.userId, table.createdAt),
  ],
);

/**
 * USD wires received on Meridian's account (recorded by finance operators). `bank_transaction_id`
 * is unique: recording the same credit twice answers the first record. CREDITED to the pending
 * subscription of `reference`, or SUSPENSE (held in the ledger's suspense account).
 */
export const fundWiresIn = pgTable(
  'fund_wires_in',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    reference: text('reference').notNull(),
    bankTransactionId: text('bank_transaction_id').notNull(),
    amountMinor: minorAmount('amount_minor').notNull(),
    sender: text('sender').notNull(),
    status: text('status', { enum: ['CREDITED', 'SUSPENSE', 'RETURNED'] }).notNull(),
    suspenseReason: text('suspense_reason'),
    orderId: bigint('order_id', { mode: 'number' }),
    recordedBy: text('recorded_by').notNull(),
    createdAt: createdAt(),
    /** Set when finance resolved a suspense wire (applied to an order, or returned). */
    resolvedBy: text('resolved_by'),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    resolutionNote: text('resolution_note'),
  },
  (table) => [
    unique('fund_wires_in_bank_transaction_key').on(table.bankTransactionId),
    index('fund_wires_in_created_idx').on(table.createdAt),
  ],
);

/** USD wires owed to users (redemptions to USD): PENDING until an operator marks them SENT or FAILED. */
export const fundWiresOut = pgTable(
  'fund_wires_out',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orderId: bigint('order_id', { mode: 'number' }).notNull(),
    userId: text('user_id').notNull(),
    reference: text('reference').notNull(),
    amountMinor: minorAmount('amount_minor').notNull(),
    bankAccountId: text('bank_account_id').notNull(),
    bankAccount: jsonb('bank_account').$type<Record<string, unknown>>().notNull(),
    status: text('status', { enum: ['PENDING', 'SENT', 'FAILED'] })
      .notNull()
      .default('PENDING'),
    note: text('note'),
    decidedBy: text('decided_by'),
    decidedAt: timestamp('decided_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (table) => [
    unique('fund_wires_out_order_key').on(table.orderId),
    index('fund_wires_out_status_idx').on(table.status, table.createdAt),
  ],
);
