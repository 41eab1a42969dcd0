import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/**
 * The one table of proposed settings changes (four eyes, docs/back-office.md "Four eyes"): a change
 * of a registered kind proposed by one operator and applied only when a different one approves it.
 * `kind` names what `before`/`after` hold (`<module>.<name>`: 'network.withdrawFee' — a decimal
 * string of the coin, 'pair.spreadBps' — an integer string of basis points, 'loans.riskLevels',
 * 'cards.fees', 'cards.fxRates' — objects of decimal strings); `target_key` which instance (`COIN/NETWORK`,
 * `FROM/TO`, or '' for a module's single settings row). `status` moves only from 'proposed', with a
 * conditional `UPDATE … WHERE status = 'proposed'`, so a change is decided and applied once.
 * `migrated_from` names the row of the former per-module table a row was copied from
 * ('loan_setting_changes:3'), so the audit log's older ids can be followed.
 */
export const settingChanges = pgTable(
  'setting_changes',
  {
    id: serial('id').primaryKey(),
    kind: text('kind').notNull(),
    targetKey: text('target_key').notNull(),
    before: jsonb('before').notNull(),
    after: jsonb('after').notNull(),
    /** 'proposed' | 'applied' | 'rejected' (`SETTING_CHANGE_STATUSES` of the contracts). */
    status: text('status').notNull().default('proposed'),
    proposedById: integer('proposed_by_id').notNull(),
    proposedByEmail: text('proposed_by_email').notNull(),
    proposedAt: timestamp('proposed_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    decidedById: integer('decided_by_id'),
    decidedByEmail: text('decided_by_email'),
    decidedAt: timestamp('decided_at', { withTimezone: true, mode: 'date' }),
    migratedFrom: text('migrated_from'),
  },
  (table) => [
    index('setting_changes_status_idx').on(table.status, table.id),
    index('setting_changes_kind_idx').on(table.kind, table.id),
    uniqueIndex('setting_changes_migrated_from_key').on(table.migratedFrom),
    check('setting_changes_status_known', sql`${table.status} IN ('proposed', 'applied', 'rejected')`),
    // Four eyes, the database's own guard: whoever applies is not the proposer.
    check(
      'setting_changes_four_eyes',
      sql`${table.status} <> 'applied' OR ${table.decidedById} <> ${table.proposedById}`,
    ),
  ],
);
