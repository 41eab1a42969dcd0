import type { Statement } from '@meridian/contracts/statements';
import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt } from '../../platform/db/columns.ts';

/**
 * Account statement generations (docs/statements.md). A row is RUNNING while the server
 * reads the ledger for it (`progress_percent` moves 0 → 100), then DONE with the statement in
 * `content` (amounts as decimal strings, never numbers), or FAILED. The partial unique index lets a
 * user have at most one RUNNING generation at a time, across every server process.
 */
export const statementGenerations = pgTable(
  'statement_generations',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull(),
    /** First UTC day of the range, `YYYY-MM-DD`. */
    fromDay: text('from_day').notNull(),
    /** Last UTC day of the range (inclusive). */
    toDay: text('to_day').notNull(),
    /** RUNNING, DONE or FAILED. */
    status: text('status').notNull(),
    progressPercent: integer('progress_percent').notNull().default(0),
    content: jsonb('content').$type<Statement>(),
    createdAt: createdAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [
    uniqueIndex('statement_generations_one_running_key')
      .on(table.userId)
      .where(sql`${table.status} = 'RUNNING'`),
    index('statement_generations_user_idx').on(table.userId, table.createdAt),
  ],
);
