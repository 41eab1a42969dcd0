import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp, testDatabaseKind } from '../../../test/helpers.ts';

/**
 * The embedded database's upkeep (platform/db/maintenance.ts): on PGlite the scheduler's
 * `database-analyze` job refreshes the planner's statistics; on PostgreSQL autovacuum does, and no
 * job is registered.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

async function reltuples(): Promise<number> {
  const result = (await t.database.db.execute(sql`SELECT reltuples::float8 AS n FROM pg_class WHERE relname = 'ledger_accounts'`)) as unknown as { rows: { n: number }[] };
  return Number(result.rows[0]?.n);
}

it.runIf(testDatabaseKind === 'pglite')('analyzes the embedded database on schedule, so the planner sees the tables as they are', async () => {
  await t.database.db.execute(sql`INSERT INTO ledger_accounts (owner_kind, owner_id, type, asset, is_negative_allowed)
    SELECT 'user', 'analyze-' || g, 'USER_AVAILABLE', 'USDT', false FROM generate_series(1, 500) g`);
  const outcomes = await t.app.scheduler.tick();
  expect(outcomes['database-analyze']).toBe('ran');
  expect(await reltuples()).toBeGreaterThanOrEqual(500);
});

it.runIf(testDatabaseKind === 'postgres')('leaves statistics to autovacuum on PostgreSQL (no job)', async () => {
  const outcomes = await t.app.scheduler.tick();
  expect(outcomes['database-analyze']).toBeUndefined();
});
