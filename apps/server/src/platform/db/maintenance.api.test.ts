import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { analyzeGrownTables } from './maintenance.ts';

/**
 * The embedded database's autoanalyze (platform/db/maintenance.ts; `openDatabase` runs it every 5 s
 * on PGlite): a table that grew is analyzed, so the planner sees it as it is; one that did not is
 * left alone. The same function is harmless on PostgreSQL, whose autovacuum does this itself.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

async function reltuples(): Promise<number> {
  const result = (await t.database.db.execute(
    sql`SELECT reltuples::float8 AS n FROM pg_class WHERE relname = 'ledger_accounts'`,
  )) as unknown as { rows: { n: number }[] };
  return Number(result.rows[0]?.n);
}

it('analyzes a table once it grew past its statistics, and leaves it alone until it grows again', async () => {
  await t.database.db.execute(sql`ANALYZE ledger_accounts`);
  await t.database.db.execute(sql`INSERT INTO ledger_accounts (owner_kind, owner_id, type, asset, is_negative_allowed)
    SELECT 'user', 'analyze-' || g, 'USER_AVAILABLE', 'USDT', false FROM generate_series(1, 2000) g`);
  expect(await analyzeGrownTables(t.database.db)).toContain('ledger_accounts');
  expect(await reltuples()).toBeGreaterThanOrEqual(2000);
  expect(await analyzeGrownTables(t.database.db)).not.toContain('ledger_accounts');
});
