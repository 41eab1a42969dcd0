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
  // Each table's size is read once (`OFFSET 0` keeps the subquery from being merged into the outer
  // query, which would call pg_relation_size again for the filter and the order).
  const result = (await db.execute(sql`
    SELECT name FROM (
      SELECT c.relname AS name, pg_relation_size(c.oid) / 8192 AS pages, c.relpages AS seen_pages
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE c.relkind = 'r' AND n.nspname = 'public'
      OFFSET 0) sizes
    WHERE pages >= ${AUTO_ANALYZE_PAGES_MIN}::int AND pages > seen_pages * ${AUTO_ANALYZE_GROWTH_FACTOR}::float8
    ORDER BY pages::float8 / greatest(seen_pages, 1) DESC
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
 * itself. A run does not start while the previous one is still going. A failed run is reported to
 * `onError` and the next one tries again. It is not put off while the server is busy: measured, the
 * decisions then ran on the plans of the emptier tables and cost more than the runs (docs/cards.md,
 * "What fills the server thread's stalls").
 */
export function startAutoAnalyze(
  db: Db,
  onError: (error: unknown) => void,
  periodMs = AUTO_ANALYZE_PERIOD_MS,
): () => Promise<void> {
  let running: Promise<unknown> = Promise.resolve();
  let isRunning = false;
  const timer = setInterval(() => {
    if (isRunning) return;
    isRunning = true;
    running = analyzeGrownTables(db)
      .catch(onError)
      .finally(() => {
        isRunning = false;
      });
  }, periodMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
