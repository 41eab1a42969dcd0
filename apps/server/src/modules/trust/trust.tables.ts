import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, minorAmount } from '../../platform/db/columns.ts';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** One beneficiary as stored: share in basis points (the shares of a trust sum to 10,000). */
export interface StoredBeneficiary {
  name: string;
  email: string;
  shareBps: number;
}

/**
 * BTC trusts. The holding itself is the ledger account `trustAccount(id, 'BTC')`; this row
 * holds the terms and the state: `active` → `claim` (the inactivity switch fired; beneficiaries
 * notified) → `closed` (a finance operator released it). Beneficiaries are a small fixed list read
 * with the trust, kept as jsonb.
 */
export const trusts = pgTable(
  'trusts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** The settlor. */
    userId: uuid('user_id').notNull(),
    name: text('name').notNull(),
    /** null = open-ended. */
    termMonths: integer('term_months'),
    isRevocable: boolean('is_revocable').notNull(),
    /** Months without a sign-in after which the trust moves to claim (6–36). */
    inactivityMonths: integer('inactivity_months').notNull(),
    beneficiaries: jsonb('beneficiaries').$type<StoredBeneficiary[]>().notNull(),
    /** 'active' | 'claim' | 'closed'. */
    state: text('state').notNull().default('active'),
    /** Sum of the entrustment fees paid (satoshi), for display. */
    feesPaidMinor: minorAmount('fees_paid_minor')
      .notNull()
      .default(sql`0`),
    claimAt: at('claim_at'),
    releasedAt: at('released_at'),
    /** The finance operator's email and the payout reference of the release. */
    releasedBy: text('released_by'),
    releaseReference: text('release_reference'),
    releaseNote: text('release_note'),
    createdAt: createdAt(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (table) => [
    index('trusts_user_idx').on(table.userId, table.id),
    // The inactivity job walks active trusts by id; operators list by state.
    index('trusts_state_idx').on(table.state, table.id),
    check('trusts_state_known', sql`${table.state} IN ('active', 'claim', 'closed')`),
    check('trusts_inactivity_range', sql`${table.inactivityMonths} BETWEEN 6 AND 36`),
    check('trusts_term_range', sql`${table.termMonths} IS NULL OR ${table.termMonths} BETWEEN 1 AND 1200`),
  ],
);

/**
 * A trust's history: each entrustment (gross `amount`, `fee`, `net` to the trust), withdrawal and
 * release, with its ledger entry. `idempotency_key` is the client's `Idempotency-Key` header (unique
 * per trust) with the SHA-256 of the request, so a replay answers the first movement.
 */
export const trustMovements = pgTable(
  'trust_movements',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    trustId: bigint('trust_id', { mode: 'number' })
      .notNull()
      .references(() => trusts.id),
    /** 'entrust' | 'withdraw' | 'release'. */
    kind: text('kind').notNull(),
    amountMinor: minorAmount('amount_minor').notNull(),
    feeMinor: minorAmount('fee_minor').notNull(),
    netMinor: minorAmount('net_minor').notNull(),
    entryId: bigint('entry_id', { mode: 'number' }).notNull(),
    idempotencyKey: text('idempotency_key'),
    requestHash: text('request_hash').notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    unique('trust_movements_idempotency_key').on(table.trustId, table.idempotencyKey),
    index('trust_movements_trust_idx').on(table.trustId, table.id),
    check('trust_movements_kind_known', sql`${table.kind} IN ('entrust', 'withdraw', 'release')`),
    check(
      'trust_movements_amounts',
      sql`${table.amountMinor} > 0 AND ${table.feeMinor} >= 0 AND ${table.netMinor} = ${table.amountMinor} - ${table.feeMinor}`,
    ),
  ],
);

/**
 * What the inactivity switch sent, once per (trust, stage, deadline): `daysBefore` 30, 14 or 3 for
 * the settlor's reminders, 0 for the beneficiaries' notice (the move to claim). `deadlineAt` is the
 * last sign-in plus the inactivity period: a sign-in moves it, so a later period of inactivity is
 * reminded afresh.
 */
export const trustInactivityNotices = pgTable(
  'trust_inactivity_notices',
  {
    trustId: bigint('trust_id', { mode: 'number' })
      .notNull()
      .references(() => trusts.id),
    daysBefore: integer('days_before').notNull(),
    deadlineAt: at('deadline_at').notNull(),
    sentAt: at('sent_at').notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.trustId, table.daysBefore, table.deadlineAt] })],
);
