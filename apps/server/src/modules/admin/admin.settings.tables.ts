import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Risky settings changes (four eyes): a change to a network's
 * withdrawal fee or a swap pair's spread proposed by one admin and applied only when a different
 * admin approves it. `target_kind` 'network' (key `COIN/NETWORK`) | 'pair' (key `FROM/TO`); `field`
 * 'withdrawFee' | 'spreadBps'; `before`/`after` as text (a fee as a decimal string of the coin, a
 * spread in basis points). `status` moves only from 'proposed', with a conditional `UPDATE … WHERE
 * status = 'proposed'`, so a change is decided once.
 */
export const settingChanges = pgTable(
  'setting_changes',
  {
    id: serial('id').primaryKey(),
    targetKind: text('target_kind').notNull(),
    targetKey: text('target_key').notNull(),
    field: text('field').notNull(),
    before: text('before').notNull(),
    after: text('after').notNull(),
    /** 'proposed' | 'applied' | 'rejected' (`SETTING_CHANGE_STATUSES` of the contracts). */
    status: text('status').notNull().default('proposed'),
    proposedById: integer('proposed_by_id').notNull(),
    proposedByEmail: text('proposed_by_email').notNull(),
    proposedAt: timestamp('proposed_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    decidedById: integer('decided_by_id'),
    decidedByEmail: text('decided_by_email'),
    decidedAt: timestamp('decided_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [
    index('setting_changes_status_idx').on(table.status, table.id),
    check('setting_changes_status_known', sql`${table.status} IN ('proposed', 'applied', 'rejected')`),
    check('setting_changes_kind_known', sql`${table.targetKind} IN ('network', 'pair')`),
    // Four eyes, the database's own guard: whoever applies is not the proposer.
    check(
      'setting_changes_four_eyes',
      sql`${table.status} <> 'applied' OR ${table.decidedById} <> ${table.proposedById}`,
    ),
  ],
);
