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
  uuid,
} from 'drizzle-orm/pg-core';
import type { ShippingAddress } from '@meridian/contracts/cards';
import { createdAt, minorAmount } from '../../platform/db/columns.ts';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * Cards. Meridian keeps the processor's token, the first 4 and last 4 digits and the
 * expiry — never a full PAN, a CVV or a PIN (PCI DSS 3.3.1.2, 3.4.1). The balance is the ledger
 * accounts `cardAccount(id, 'CARD_AVAILABLE' | 'CARD_HELD', currency)`. The authorisation decision
 * locks this row (`FOR UPDATE`), so decisions on one card are serial and never overspend.
 */
export const cards = pgTable(
  'cards',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id').notNull(),
    /** 'VIRTUAL' | 'PHYSICAL'. */
    kind: text('kind').notNull(),
    /** 'VISA' | 'MASTERCARD'. */
    network: text('network').notNull(),
    /** 'USD' | 'EUR' | 'JPY' | 'GBP'. */
    currency: text('currency').notNull(),
    /** CARD_STATUSES of the contract. */
    status: text('status').notNull(),
    isLocked: boolean('is_locked').notNull().default(false),
    processorToken: text('processor_token').notNull(),
    first4: text('first4').notNull(),
    last4: text('last4').notNull(),
    expiryMonth: integer('expiry_month').notNull(),
    expiryYear: integer('expiry_year').notNull(),
    cardholderName: text('cardholder_name').notNull(),
    /** The employee a PRO account issued this card to (`cards.corporate.ts`); null for the holder's own cards. */
    employeeName: text('employee_name'),
    isBound: boolean('is_bound').notNull().default(false),
    isPinSet: boolean('is_pin_set').notNull().default(false),
    /** Wrong PINs in a row (five block the card). */
    pinWrongCount: integer('pin_wrong_count').notNull().default(0),
    pinBlockedUntil: at('pin_blocked_until'),
    /** Limits in minor units of `currency`; null = none. */
    limitPerTransactionMinor: minorAmount('limit_per_transaction_minor'),
    limitDailyMinor: minorAmount('limit_daily_minor'),
    limitMonthlyMinor: minorAmount('limit_monthly_minor'),
    /** The user's spend rules. */
    blockedMccs: jsonb('blocked_mccs').$type<string[]>().notNull().default([]),
    rulePerTransactionMaxMinor: minorAmount('rule_per_transaction_max_minor'),
    ruleAskAboveMinor: minorAmount('rule_ask_above_minor'),
    shippingAddress: jsonb('shipping_address').$type<ShippingAddress>(),
    /** The client's Idempotency-Key of the application (unique per user). */
    idempotencyKey: text('idempotency_key'),
    requestHash: text('request_hash'),
    createdAt: createdAt(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (table) => [
    index('cards_user_idx').on(table.userId, table.id),
    uniqueIndex('cards_processor_token_key').on(table.processorToken),
    unique('cards_idempotency_key').on(table.userId, table.idempotencyKey),
    check('cards_kind_known', sql`${table.kind} IN ('VIRTUAL', 'PHYSICAL')`),
    check('cards_currency_known', sql`${table.currency} IN ('USD', 'EUR', 'JPY', 'GBP')`),
    check(
      'cards_status_known',
      sql`${table.status} IN ('UNDER_REVIEW', 'PROCESSING', 'SHIPPED', 'ACTIVE', 'FROZEN', 'CANCELLED', 'EXPIRED', 'RETURNED')`,
    ),
  ],
);

/**
 * A card's transactions: purchases (one row per processor authorisation, unique
 * `processor_auth_id`, so the same webhook twice finds the row and answers its decision), refunds
 * (unique `processor_refund_id`), top-ups and fees. `amount_minor` is in the card's currency;
 * `held_minor` what is held now for an AUTHORIZED purchase.
 */
export const cardTransactions = pgTable(
  'card_transactions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    cardId: bigint('card_id', { mode: 'number' })
      .notNull()
      .references(() => cards.id),
    /** 'PURCHASE' | 'REFUND' | 'TOPUP' | 'FEE'. */
    kind: text('kind').notNull(),
    /** CARD_TRANSACTION_STATUSES of the contract. */
    status: text('status').notNull(),
    amountMinor: minorAmount('amount_minor').notNull(),
    heldMinor: minorAmount('held_minor')
      .notNull()
      .default(sql`0`),
    /** What the merchant charged: a decimal string and its currency. */
    originalAmount: text('original_amount').notNull(),
    originalCurrency: text('original_currency').notNull(),
    merchantName: text('merchant_name'),
    mcc: text('mcc'),
    declineReason: text('decline_reason'),
    processorAuthId: text('processor_auth_id'),
    processorRefundId: text('processor_refund_id'),
    isOnline: boolean('is_online'),
    /** 'THREE_DS' | 'ASK_ABOVE' while waiting for the user's confirmation. */
    confirmReason: text('confirm_reason'),
    confirmBy: at('confirm_by'),
    sourceCoin: text('source_coin'),
    sourceAmountMinor: minorAmount('source_amount_minor'),
    idempotencyKey: text('idempotency_key'),
    createdAt: createdAt(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (table) => [
    index('card_transactions_card_idx').on(table.cardId, table.id),
    // The decision's daily and monthly spend: a range of the card's purchases by time.
    index('card_transactions_card_time_idx').on(table.cardId, table.createdAt),
    uniqueIndex('card_transactions_auth_key').on(table.processorAuthId),
    uniqueIndex('card_transactions_refund_key').on(table.processorRefundId),
    unique('card_transactions_idempotency_key').on(table.cardId, table.idempotencyKey),
    index('card_transactions_pending_idx')
      .on(table.confirmBy)
      .where(sql`${table.status} = 'PENDING_CONFIRMATION'`),
    check('card_transactions_kind_known', sql`${table.kind} IN ('PURCHASE', 'REFUND', 'TOPUP', 'FEE')`),
    check('card_transactions_amounts', sql`${table.amountMinor} >= 0 AND ${table.heldMinor} >= 0`),
  ],
);

/**
 * What each card spent per UTC day (the authorisation decision's daily and monthly
 * limits): `amount_minor` is the sum, in minor units of the card's currency, of the card's PURCHASE
 * rows that are AUTHORIZED or CLEARED and were created on `day` (UTC). Kept by the trigger
 * `card_spend_totals_track` on `card_transactions` (sql/card_spend_totals_track.sql) in the same
 * transaction as the row's change, so the decision reads one row for the day and at most 31 for the
 * month instead of summing the card's purchases. Written only by the trigger.
 */
export const cardSpendTotals = pgTable(
  'card_spend_totals',
  {
    cardId: bigint('card_id', { mode: 'number' })
      .notNull()
      .references(() => cards.id),
    /** The UTC day of the purchases' `created_at`. */
    day: date('day', { mode: 'string' }).notNull(),
    amountMinor: minorAmount('amount_minor')
      .notNull()
      .default(sql`0`),
  },
  (table) => [primaryKey({ name: 'card_spend_totals_pkey', columns: [table.cardId, table.day] })],
);

/** Top-up quotes: a locked rate valid 30 s, used at most once (`used_at`). */
export const cardTopUpQuotes = pgTable(
  'card_topup_quotes',
  {
    id: uuid('id').primaryKey(),
    cardId: bigint('card_id', { mode: 'number' })
      .notNull()
      .references(() => cards.id),
    userId: uuid('user_id').notNull(),
    coin: text('coin').notNull(),
    amountMinor: minorAmount('amount_minor').notNull(),
    creditMinor: minorAmount('credit_minor').notNull(),
    /** Card currency per one coin, a decimal string. */
    rate: text('rate').notNull(),
    expiresAt: at('expires_at').notNull(),
    usedAt: at('used_at'),
    createdAt: createdAt(),
  },
  (table) => [index('card_topup_quotes_expiry_idx').on(table.expiresAt)],
);

/** Limit-change requests for customer service; the back office decides them. */
export const cardLimitRequests = pgTable(
  'card_limit_requests',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    cardId: bigint('card_id', { mode: 'number' })
      .notNull()
      .references(() => cards.id),
    /** 'PENDING' | 'APPROVED' | 'REJECTED'. */
    state: text('state').notNull().default('PENDING'),
    perTransactionMinor: minorAmount('per_transaction_minor'),
    dailyMinor: minorAmount('daily_minor'),
    monthlyMinor: minorAmount('monthly_minor'),
    reason: text('reason').notNull(),
    decidedAt: at('decided_at'),
    decidedBy: text('decided_by'),
    /** The operator's answer to the user; null while pending. */
    reply: text('reply'),
    createdAt: createdAt(),
  },
  (table) => [
    index('card_limit_requests_card_idx').on(table.cardId, table.id),
    uniqueIndex('card_limit_requests_one_pending')
      .on(table.cardId)
      .where(sql`${table.state} = 'PENDING'`),
  ],
);

/**
 * Clearings and refunds the processor sent for no authorisation Meridian knows (suspense
 * and an alert, not an error). The money went SUSPENSE → PLATFORM_CARD_SETTLEMENT; an operator
 * resolves the row.
 */
export const cardSuspenseItems = pgTable('card_suspense_items', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  eventType: text('event_type').notNull(),
  processorAuthId: text('processor_auth_id').notNull(),
  cardToken: text('card_token').notNull(),
  amountMinor: minorAmount('amount_minor').notNull(),
  currency: text('currency').notNull(),
  entryId: bigint('entry_id', { mode: 'number' }),
  /** 'OPEN' | 'RESOLVED'. */
  state: text('state').notNull().default('OPEN'),
  note: text('note'),
  /** How finance resolved it: 'ASSIGN_TO_CARD' | 'WRITE_OFF' (null while open). */
  resolution: text('resolution'),
  resolvedAt: at('resolved_at'),
  /** The resolution's journal entry. */
  resolutionEntryId: bigint('resolution_entry_id', { mode: 'number' }),
  createdAt: createdAt(),
});

/**
 * Card settings in the database (one row, id 1; edited in the
 * back office — `cards.settings.ts`): the physical card's production fee and the virtual card's
 * issuing fee (USDT minor units; changed only through an approved `card_setting_changes` row), the
 * physical cards one user may hold, the dated virtual-card promotion with its switch (no issuing fee
 * while on and between its instants), the currencies virtual cards are issued in, the least and most
 * one top-up spends (minor units of the coin, 6 decimals), the default limits of new cards (decimal
 * strings of each currency) and the top-up rate table (units of the card currency per 1 USD, decimal
 * strings; EURE → EUR is 1:1 by definition, outside the table).
 */
export const cardSettings = pgTable(
  'card_settings',
  {
    id: integer('id').primaryKey(),
    virtualFeeUsdtMinor: minorAmount('virtual_fee_usdt_minor').notNull(),
    physicalFeeUsdtMinor: minorAmount('physical_fee_usdt_minor')
      .notNull()
      .default(sql`10000000`),
    physicalCardsMax: integer('physical_cards_max').notNull().default(3),
    isPromotionEnabled: boolean('is_promotion_enabled').notNull().default(true),
    promotionStartsAt: at('promotion_starts_at'),
    promotionEndsAt: at('promotion_ends_at'),
    virtualCurrencies: jsonb('virtual_currencies').$type<string[]>().notNull().default(['USD', 'EUR', 'JPY', 'GBP']),
    topUpMinMinor: minorAmount('top_up_min_minor')
      .notNull()
      .default(sql`10000000`),
    topUpMaxMinor: minorAmount('top_up_max_minor')
      .notNull()
      .default(sql`100000000000`),
    defaultLimits: jsonb('default_limits')
      .$type<Record<string, CardDefaultLimitsRow>>()
      .notNull()
      .default({
        USD: { perTransaction: '5000.00', daily: '10000.00', monthly: '50000.00' },
        EUR: { perTransaction: '5000.00', daily: '10000.00', monthly: '50000.00' },
        GBP: { perTransaction: '5000.00', daily: '10000.00', monthly: '50000.00' },
        JPY: { perTransaction: '750000', daily: '1500000', monthly: '7500000' },
      }),
    fxRates: jsonb('fx_rates').$type<Record<string, string>>().notNull(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (table) => [
    check('card_settings_one_row', sql`${table.id} = 1`),
    check(
      'card_settings_fees_non_negative',
      sql`${table.virtualFeeUsdtMinor} >= 0 AND ${table.physicalFeeUsdtMinor} >= 0`,
    ),
    check('card_settings_cards_max', sql`${table.physicalCardsMax} BETWEEN 0 AND 20`),
    check(
      'card_settings_top_up_bounds',
      sql`0 < ${table.topUpMinMinor} AND ${table.topUpMinMinor} <= ${table.topUpMaxMinor}`,
    ),
  ],
);

/** Default limits of new cards in one currency, decimal strings of it ("5000.00"). */
export interface CardDefaultLimitsRow {
  perTransaction: string;
  daily: string;
  monthly: string;
}

// ---------------------------------------------------------------- the sandbox processor's own store

/**
 * The built-in sandbox issuer processor's vault (docs/architecture.md "Outside world"): PAN, CVV and PIN sealed with
 * AES-256-GCM (`SecretBox`, key CARD_VAULT_KEY); `pan_hash` an HMAC of the PAN for binding look-ups.
 * `state` 'ISSUED' (a cardholder has it) or 'STOCK' (a pre-activated physical card waiting to be
 * bound with its activation code). Meridian's own tables never hold these values.
 */
export const sandboxCardVault = pgTable(
  'sandbox_card_vault',
  {
    token: text('token').primaryKey(),
    network: text('network').notNull(),
    panSealed: text('pan_sealed').notNull(),
    panHash: text('pan_hash').notNull(),
    cvvSealed: text('cvv_sealed').notNull(),
    pinSealed: text('pin_sealed'),
    expiryMonth: integer('expiry_month').notNull(),
    expiryYear: integer('expiry_year').notNull(),
    cardholderName: text('cardholder_name').notNull(),
    state: text('state').notNull(),
    activationCodeHash: text('activation_code_hash'),
    isLocked: boolean('is_locked').notNull().default(false),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('sandbox_card_vault_pan_hash_key').on(table.panHash)],
);

/** The sandbox processor's record of each authorisation it sent, with Meridian's answer. */
export const sandboxAuthorizations = pgTable('sandbox_authorizations', {
  id: text('id').primaryKey(),
  token: text('token').notNull(),
  amount: text('amount').notNull(),
  currency: text('currency').notNull(),
  merchantName: text('merchant_name').notNull(),
  mcc: text('mcc').notNull(),
  /** 'APPROVED' | 'DECLINED' | 'PENDING_CONFIRMATION' | 'CLEARED' | 'REVERSED'. */
  status: text('status').notNull(),
  declineReason: text('decline_reason'),
  createdAt: createdAt(),
  updatedAt: at('updated_at').notNull().defaultNow(),
});
