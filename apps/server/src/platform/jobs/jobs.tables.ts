import { primaryKey, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * One row per job and period that ran to completion (or is running, inside its transaction). The
 * primary key makes a period's claim unique across every server process: a second instance finds
 * the row and skips. Re-exported from `modules/market/market.tables.ts` so that drizzle-kit, which
 * reads module tables only, generates its migration.
 */
export const jobRuns = pgTable(
  'job_runs',
  {
    jobName: text('job_name').notNull(),
    periodStartAt: timestamp('period_start_at', { withTimezone: true, mode: 'date' }).notNull(),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [primaryKey({ columns: [table.jobName, table.periodStartAt] })],
);
