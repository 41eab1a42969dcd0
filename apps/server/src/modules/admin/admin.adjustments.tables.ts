import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * One posting of a manual adjustment as stored: the account (a user's available balance, or a
 * platform account by its back-office code), the asset, and the signed amount in minor units of
 * the asset as a decimal integer string (jsonb holds no bigint; never a JS number).
 */
export interface StoredAdjustmentPosting {
  account: { kind: 'user'; userId: string } | { kind: 'platform'; code: 'adjustments' | 'suspense' | 'fees' };
  asset: string;
  /** Signed minor units, e.g. "-1500000" (−1.5 USDT). */
  amountMinor: string;
}

/**
 * Manual adjustments (four eyes): a balanced journal entry proposed by one finance
 * operator with a reason, approved by a different one (then posted through the ledger, idempotency
 * key `adjustment:<id>`), or rejected with a reason (by any finance operator, its proposer included). `status` moves only from 'proposed', with a
 * conditional `UPDATE … WHERE status = 'proposed'`, so it is decided once; `entry_id` is the ledger
 * entry once posted. Operators are kept by id (the four-eyes check) and email (as shown).
 */
export const manualAdjustments = pgTable(
  'manual_adjustments',
  {
    id: serial('id').primaryKey(),
    /** 'proposed' | 'posted' | 'rejected' (`ADJUSTMENT_STATUSES` of the contracts). */
    status: text('status').notNull().default('proposed'),
    reason: text('reason').notNull(),
    postings: jsonb('postings').$type<StoredAdjustmentPosting[]>().notNull(),
    proposedById: integer('proposed_by_id').notNull(),
    proposedByEmail: text('proposed_by_email').notNull(),
    proposedAt: timestamp('proposed_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    decidedById: integer('decided_by_id'),
    decidedByEmail: text('decided_by_email'),
    decidedAt: timestamp('decided_at', { withTimezone: true, mode: 'date' }),
    /** The rejection's reason (null when approved). */
    decisionNote: text('decision_note'),
    /** The ledger entry that posted it. */
    entryId: bigint('entry_id', { mode: 'number' }),
  },
  (table) => [
    index('manual_adjustments_status_idx').on(table.status, table.id),
    check('manual_adjustments_status_known', sql`${table.status} IN ('proposed', 'posted', 'rejected')`),
    // Four eyes, the database's own guard behind the service's check: whoever posts is not the proposer.
    check(
      'manual_adjustments_four_eyes',
      sql`${table.status} <> 'posted' OR ${table.decidedById} <> ${table.proposedById}`,
    ),
  ],
);
