import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  smallint,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, minorAmount } from '../../platform/db/columns.ts';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
/** A USD price per BTC, exact decimal text (no scale: the digits computed are kept). */
const priceColumn = (name: string) => numeric(name);

/**
 * The coins that can be borrowed (USDT, USDC, USDE; editable). `pool_capacity_minor` is
 * what the lending pool may lend in the coin in total: a borrow beyond it fails (status 1).
 */
export const loanCoins = pgTable('loan_coins', {
  coin: text('coin').primaryKey(),
  isEnabled: boolean('is_enabled').notNull().default(true),
  minPrincipalMinor: minorAmount('min_principal_minor').notNull(),
  poolCapacityMinor: minorAmount('pool_capacity_minor').notNull(),
  sortOrder: integer('sort_order').notNull().default(0),
  updatedAt: at('updated_at').notNull().defaultNow(),
});

/** Loan terms with their APR in basis points (30/90/180/360 days; e.g. 12/10/9/8 %). */
export const loanTerms = pgTable(
  'loan_terms',
  {
    termDays: integer('term_days').primaryKey(),
    annualRateBps: integer('annual_rate_bps').notNull(),
    isEnabled: boolean('is_enabled').notNull().default(true),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (table) => [check('loan_terms_rate_range', sql`${table.annualRateBps} BETWEEN 0 AND 100000`)],
);

/** The loan rules' numbers (one row, id 1), all editable. */
export const loanSettings = pgTable(
  'loan_settings',
  {
    id: integer('id').primaryKey(),
    initialLtvBps: integer('initial_ltv_bps').notNull(),
    marginCallLtvBps: integer('margin_call_ltv_bps').notNull(),
    liquidationLtvBps: integer('liquidation_ltv_bps').notNull(),
    alertLevelsBps: jsonb('alert_levels_bps').$type<number[]>().notNull(),
    alertRearmBps: integer('alert_rearm_bps').notNull(),
    /** Per user, USD cents (stablecoins at 1). */
    maxOutstandingUsdMinor: minorAmount('max_outstanding_usd_minor').notNull(),
    liquidationFeeBps: integer('liquidation_fee_bps').notNull(),
    earlyRepayFeeBps: integer('early_repay_fee_bps').notNull(),
    overdueGraceDays: integer('overdue_grace_days').notNull(),
    overdueRateMultiplier: integer('overdue_rate_multiplier').notNull(),
    /**
     * Cure window (docs/decisions/0005-margin-call-before-liquidation.md): minutes a loan between the
     * margin-call and the liquidation LTV is left after its margin call was sent before it may be
     * liquidated.
     */
    cureWindowMinutes: integer('cure_window_minutes').notNull().default(60),
    /** LTV at which a loan is liquidated at once, cure window or not (9500 = 95 %). */
    hardLiquidationLtvBps: integer('hard_liquidation_ltv_bps').notNull().default(9500),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (table) => [
    check('loan_settings_one_row', sql`${table.id} = 1`),
    check(
      'loan_settings_ltv_order',
      sql`0 < ${table.initialLtvBps} AND ${table.initialLtvBps} < ${table.marginCallLtvBps} AND ${table.marginCallLtvBps} < ${table.liquidationLtvBps} AND ${table.liquidationLtvBps} < 10000`,
    ),
    check(
      'loan_settings_cure_window',
      sql`${table.cureWindowMinutes} >= 0 AND ${table.liquidationLtvBps} <= ${table.hardLiquidationLtvBps} AND ${table.hardLiquidationLtvBps} < 10000`,
    ),
    check(
      'loan_settings_fee_fits',
      sql`${table.liquidationFeeBps} >= 0 AND ${table.liquidationFeeBps} + ${table.initialLtvBps} < 10000`,
    ),
  ],
);

/**
 * Loan orders (loan labels, status codes). Amounts in minor units: collateral in
 * satoshi, the rest in the loan coin. The collateral itself sits in the user's ledger account
 * USER_LOAN_COLLATERAL (BTC); `collateral_minor` is this loan's part of it.
 *
 * `liquidation_price` = debt ÷ (collateral × liquidation LTV), rounded up to 1e-8 USD, rewritten on
 * every change of debt or collateral; the engine's candidates are an index range scan of the partial
 * index over open loans (status 3, 4). A threshold LTV L is reached at price P exactly when
 * `liquidation_price ≥ P × L ÷ liquidation LTV`, so alerts and protection rules use the same index.
 */
export const loans = pgTable(
  'loans',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id').notNull(),
    status: smallint('status').notNull().default(0),
    loanCoin: text('loan_coin').notNull(),
    collateralMinor: minorAmount('collateral_minor').notNull(),
    principalMinor: minorAmount('principal_minor').notNull(),
    outstandingPrincipalMinor: minorAmount('outstanding_principal_minor').notNull(),
    termDays: integer('term_days').notNull(),
    annualRateBps: integer('annual_rate_bps').notNull(),
    /** Interest for the whole term, rounded up (owed in full whatever the repayment date). */
    interestMinor: minorAmount('interest_minor').notNull(),
    interestPaidMinor: minorAmount('interest_paid_minor')
      .notNull()
      .default(sql`0`),
    /** Overdue interest accrued (3 × daily rate on the outstanding principal per overdue day). */
    overdueInterestMinor: minorAmount('overdue_interest_minor')
      .notNull()
      .default(sql`0`),
    overdueInterestPaidMinor: minorAmount('overdue_interest_paid_minor')
      .notNull()
      .default(sql`0`),
    /** Overdue days already accrued (0–grace). */
    overdueDays: integer('overdue_days').notNull().default(0),
    feesPaidMinor: minorAmount('fees_paid_minor')
      .notNull()
      .default(sql`0`),
    liquidationPrice: priceColumn('liquidation_price'),
    /** Bit i set: alert level i (of the settings' levels) has fired and is not re-armed yet. */
    alertsFired: integer('alerts_fired').notNull().default(0),
    /**
     * When the margin call (the alert at the margin-call LTV) was sent; the cure window runs from
     * here. Cleared by a cure (docs/decisions/0005-margin-call-before-liquidation.md).
     */
    marginCallAt: at('margin_call_at'),
    borrowedAt: at('borrowed_at').notNull(),
    /** Hong Kong date on which it falls due: the borrow day + term days. */
    repaymentDate: text('repayment_date').notNull(),
    closedAt: at('closed_at'),
    entryId: bigint('entry_id', { mode: 'number' }),
    idempotencyKey: text('idempotency_key').notNull(),
    requestHash: text('request_hash').notNull(),
    createdAt: createdAt(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (table) => [
    unique('loans_user_key_uq').on(table.userId, table.idempotencyKey),
    index('loans_user_idx').on(table.userId, table.id),
    index('loans_liquidation_price_open_idx')
      .on(table.liquidationPrice)
      .where(sql`${table.status} IN (3, 4)`),
    index('loans_alerted_open_idx')
      .on(table.id)
      .where(sql`${table.status} IN (3, 4) AND ${table.alertsFired} <> 0`),
    index('loans_due_open_idx')
      .on(table.repaymentDate)
      .where(sql`${table.status} IN (3, 4)`),
    check('loans_status_known', sql`${table.status} BETWEEN 0 AND 9`),
    check('loans_amounts_non_negative', sql`${table.collateralMinor} >= 0 AND ${table.outstandingPrincipalMinor} >= 0`),
  ],
);

/** Repayments: by the user, a protection rule, or from collateral. */
export const loanRepayments = pgTable(
  'loan_repayments',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    loanId: bigint('loan_id', { mode: 'number' }).notNull(),
    userId: uuid('user_id').notNull(),
    loanCoin: text('loan_coin').notNull(),
    repayType: text('repay_type').notNull(),
    origin: text('origin').notNull(),
    amountMinor: minorAmount('amount_minor').notNull(),
    interestMinor: minorAmount('interest_minor').notNull(),
    overdueInterestMinor: minorAmount('overdue_interest_minor').notNull(),
    principalMinor: minorAmount('principal_minor').notNull(),
    feeMinor: minorAmount('fee_minor').notNull(),
    collateralSoldMinor: minorAmount('collateral_sold_minor').notNull(),
    collateralReleasedMinor: minorAmount('collateral_released_minor').notNull(),
    price: priceColumn('price'),
    statusAfter: smallint('status_after').notNull(),
    entryId: bigint('entry_id', { mode: 'number' }).notNull(),
    idempotencyKey: text('idempotency_key').notNull(),
    requestHash: text('request_hash').notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    unique('loan_repayments_key_uq').on(table.loanId, table.idempotencyKey),
    index('loan_repayments_user_idx').on(table.userId, table.id),
  ],
);

/** Collateral adjustments. */
export const loanAdjustments = pgTable(
  'loan_adjustments',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    loanId: bigint('loan_id', { mode: 'number' }).notNull(),
    userId: uuid('user_id').notNull(),
    direction: text('direction').notNull(),
    origin: text('origin').notNull(),
    amountMinor: minorAmount('amount_minor').notNull(),
    collateralAfterMinor: minorAmount('collateral_after_minor').notNull(),
    ltvBefore: numeric('ltv_before'),
    ltvAfter: numeric('ltv_after'),
    price: priceColumn('price'),
    entryId: bigint('entry_id', { mode: 'number' }).notNull(),
    idempotencyKey: text('idempotency_key').notNull(),
    requestHash: text('request_hash').notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    unique('loan_adjustments_key_uq').on(table.loanId, table.idempotencyKey),
    index('loan_adjustments_user_idx').on(table.userId, table.id),
  ],
);

/**
 * Liquidation receipts (LoanLiquidationRecord). `price_event` names the price the
 * engine acted on; (loan, price event) is unique, so a loan is liquidated at most once per price
 * event whatever restarts or second processes do.
 */
export const loanLiquidations = pgTable(
  'loan_liquidations',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    loanId: bigint('loan_id', { mode: 'number' }).notNull(),
    userId: uuid('user_id').notNull(),
    kind: text('kind').notNull(),
    loanCoin: text('loan_coin').notNull(),
    priceEvent: text('price_event').notNull(),
    price: priceColumn('price').notNull(),
    priceSources: jsonb('price_sources').$type<string[]>().notNull(),
    collateralSoldMinor: minorAmount('collateral_sold_minor').notNull(),
    feeMinor: minorAmount('fee_minor').notNull(),
    debtRepaidMinor: minorAmount('debt_repaid_minor').notNull(),
    collateralReturnedMinor: minorAmount('collateral_returned_minor').notNull(),
    shortfallMinor: minorAmount('shortfall_minor').notNull(),
    /**
     * How the proceeds net of the fee were applied (docs/decisions/0006-shortfall-income.md):
     * principal and interest (term + overdue) repaid; on a shortfall, the principal the platform's
     * loss account paid back to the pool. Null on receipts written before the split was stored.
     */
    principalRepaidMinor: minorAmount('principal_repaid_minor'),
    interestRepaidMinor: minorAmount('interest_repaid_minor'),
    principalLossMinor: minorAmount('principal_loss_minor'),
    ltvBefore: numeric('ltv_before').notNull(),
    ltvAfter: numeric('ltv_after'),
    statusAfter: smallint('status_after').notNull(),
    entryId: bigint('entry_id', { mode: 'number' }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    unique('loan_liquidations_event_uq').on(table.loanId, table.priceEvent),
    index('loan_liquidations_user_idx').on(table.userId, table.id),
  ],
);

/** A loan's protection rule: at trigger LTV, add collateral or repay, up to max, back to target. */
export const loanProtections = pgTable(
  'loan_protections',
  {
    loanId: bigint('loan_id', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id').notNull(),
    isEnabled: boolean('is_enabled').notNull(),
    action: text('action').notNull(),
    triggerLtvBps: integer('trigger_ltv_bps').notNull(),
    targetLtvBps: integer('target_ltv_bps').notNull(),
    maxAmountMinor: minorAmount('max_amount_minor').notNull(),
    /** REPAY's source: 'WALLET' (the loan coin's balance) or 'FUND' (current-fund shares redeemed 1:1). */
    repaySource: text('repay_source').notNull().default('WALLET'),
    lastRunAt: at('last_run_at'),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (table) => [
    index('loan_protections_enabled_idx')
      .on(table.loanId)
      .where(sql`${table.isEnabled}`),
    check('loan_protections_action_known', sql`${table.action} IN ('ADD_COLLATERAL', 'REPAY')`),
    check(
      'loan_protections_repay_source_known',
      sql`${table.repaySource} = 'WALLET' OR (${table.repaySource} = 'FUND' AND ${table.action} = 'REPAY')`,
    ),
    check('loan_protections_target_below_trigger', sql`${table.targetLtvBps} < ${table.triggerLtvBps}`),
  ],
);

/** Alarms of the engine (no price, stale price, refused price): one row per refused run, for operators. */
export const loanEngineAlarms = pgTable('loan_engine_alarms', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  reason: text('reason').notNull(),
  detail: jsonb('detail').$type<Record<string, unknown>>().notNull(),
  createdAt: createdAt(),
});
