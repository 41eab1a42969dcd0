import { afterAll } from 'vitest';
import { checkLedgerInvariants, formatInvariantReport } from '../src/modules/ledger/ledger.invariants.ts';
import type { Database } from '../src/platform/db/client.ts';
import { testDatabaseRegistry } from './helpers.ts';

/**
 * Vitest setup file of the API projects: after every API test file, the ledger invariants
 * (ARCHITECTURE §4) must hold on that file's database. The check runs when a test app closes
 * (a hook in `testDatabaseRegistry`), and in `afterAll` for any app the file left open, which is
 * then closed with its database (a worker runs many files).
 *
 * The API projects run with `isolate: false` (vitest.config.ts): this file runs again before each
 * test file, but `helpers.ts` stays loaded in the worker, so the close hook is added only once.
 */
async function assertLedgerInvariants(database: Database): Promise<void> {
  const report = await checkLedgerInvariants(database.db);
  if (!report.isHeld)
    throw new Error(`ledger invariants broken after this test file:\n${formatInvariantReport(report)}`);
}

if (testDatabaseRegistry.beforeClose.length === 0) testDatabaseRegistry.beforeClose.push(assertLedgerInvariants);

afterAll(async () => {
  const leftOpen = [...testDatabaseRegistry.open];
  testDatabaseRegistry.open.clear();
  for (const database of leftOpen) {
    const close = testDatabaseRegistry.closers.get(database);
    testDatabaseRegistry.closers.delete(database);
    try {
      await assertLedgerInvariants(database);
    } finally {
      await close?.();
    }
  }
});
