import { sql } from 'drizzle-orm';
import type { Db } from './client.ts';

/** How often the embedded database looks for tables that grew since their statistics were taken. */
export const AUTO_ANALYZE_PERIOD_MS = 5_000;
/**
 * Statistics target of these analyzes (PostgreSQL's default is 100): ANALYZE samples 300 × target
 * rows, and while it runs it holds the one embedded connection — every request waits. 10 samples
 * 3,000 rows (measured on a 40,000-row table: 6–9 ms instead of 44–56 ms) and still gives the
 * planner row counts, distinct counts and 10-bucket histograms: enough for this schema's key
 * look-ups and date ranges.
 */
const AUTO_ANALYZE_STATISTICS_TARGET = 10;
/** A table is analyzed again once it has at least this many 8-KiB pages … */
const AUTO_ANALYZE_PAGES_MIN = 8;
/**
 * … and this many times the pages its statistics saw. Coarser than autovacuum's +10 % rows: the
 * planner scales its row estimates by a table's current size anyway, so what matters most is
 * leaving the statistics of an (almost) empty table behind; and each ANALYZE holds the single
 * embedded connection.
 */
const AUTO_ANALYZE_GROWTH_FACTOR = 2;

/**
 * Autoanalyze for the embedded database, which has no autovacuum process (PGlite is a single
 * backend): `ANALYZE` the table of the `public` schema that grew most among those whose size
 * reached `AUTO_ANALYZE_PAGES_MIN` pages and `AUTO_ANALYZE_GROWTH_FACTOR` × the pages its last
 * statistics saw
 * (`pg_class.relpages`, compared with the file size). Without it the planner keeps the statistics of
 * empty tables: PL/pgSQL's cached plans (the ledger's `ledger_post`, `ledger_post_batch`) and batch
 * look-ups (`WHERE (id, user_id) IN (unnest …)`) stay hash joins over sequential scans chosen for a
 * handful of rows — measured: a posting took 5 ms instead of 1 ms at 10,000 accounts, and
 * `bench:swap` fell from 1,000 to 400 swaps/s as its quote table grew during the run. `ANALYZE`
 * also invalidates those cached plans. Dead row versions need no job: balance updates touch no
 * indexed column, so they are heap-only and pruned as pages are read.
 *
 * @returns the tables analyzed (at most one).
 */
export async function analyzeGrownTables(db: Db): Promise<string[]> {
  // One table per call (the most grown): the connection is held by one short ANALYZE at a time.
  const result = (await db.execute(sql`
    SELECT c.relname AS name
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE c.relkind = 'r' AND n.nspname = 'public'
      AND pg_relation_size(c.oid) / 8192 >= ${AUTO_ANALYZE_PAGES_MIN}::int
      AND pg_relation_size(c.oid) / 8192 > c.relpages * ${AUTO_ANALYZE_GROWTH_FACTOR}::float8
    ORDER BY pg_relation_size(c.oid)::float8 / greatest(c.relpages, 1) DESC
    LIMIT 1`)) as unknown as { rows: { name: string }[] };
  const names = result.rows.map((row) => row.name);
  for (const name of names) {
    await db.transaction(async (tx) => {
      await tx.execute(sql.raw(`SET LOCAL default_statistics_target = ${AUTO_ANALYZE_STATISTICS_TARGET}`));
      await tx.execute(sql`ANALYZE ${sql.identifier(name)}`);
    });
  }
  return names;
}

/**
 * Run `analyzeGrownTables` every `periodMs` until the returned stop function is called (which waits
 * for a run in progress). Used by `openDatabase` for PGlite; PostgreSQL's autovacuum does this
 * itself. A failed run is reported to `onError` and the next one tries again.
 */
export function startAutoAnalyze(
  db: Db,
  onError: (error: unknown) => void,
  periodMs = AUTO_ANALYZE_PERIOD_MS,
): () => Promise<void> {
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    running = analyzeGrownTables(db).catch(onError);
  }, periodMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
