import { sql } from 'drizzle-orm';
import type { JobDefinition } from '../jobs/scheduler.ts';
import type { DatabaseTarget } from './client.ts';

/** How often the embedded database's planner statistics are refreshed. */
export const ANALYZE_PERIOD_MS = 10 * 60_000;

/**
 * Upkeep the embedded database needs because it has no autovacuum process (PGlite is a single
 * backend): `ANALYZE` every ANALYZE_PERIOD_MS. Without it the planner's statistics stay those of an
 * empty database, and the plans PL/pgSQL caches for the session (the ledger's `ledger_post`) stay
 * those chosen when the tables were small — sequential scans whose cost grows with every account
 * (measured: a posting took 5 ms instead of 1 ms once 10,000 accounts existed). `ANALYZE` updates
 * the statistics and invalidates those cached plans. Dead row versions need no job: balance updates
 * touch no indexed column, so they are heap-only and pruned as pages are read.
 *
 * PostgreSQL's autovacuum does this itself: on `postgres` targets there is no job.
 */
export function databaseMaintenanceJobs(kind: DatabaseTarget['kind']): JobDefinition[] {
  if (kind === 'postgres') return [];
  return [
    {
      name: 'database-analyze',
      periodMs: ANALYZE_PERIOD_MS,
      run: async ({ tx }) => {
        await tx.execute(sql`ANALYZE`);
      },
    },
  ];
}
