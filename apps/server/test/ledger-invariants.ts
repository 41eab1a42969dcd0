import { afterAll } from 'vitest';
import { checkLedgerInvariants, formatInvariantReport } from '../src/modules/ledger/ledger.invariants.ts';
import type { Database } from '../src/platform/db/client.ts';
import { testDatabaseRegistry } from './helpers.ts';

/**
 * Vitest setup file of the API projects: after every API test file, the ledger invariants
 * (ARCHITECTURE §4) must hold on that file's database. The check runs when a test app closes
 * (a hook in `testDatabaseRegistry`), and in `afterAll` for any app the file left open.
 */
async function assertLedgerInvariants(database: Database): Promise<void> {
  const report = await checkLedgerInvariants(database.db);
  if (!report.isHeld)
    throw new Error(`ledger invariants broken after this test file:\n${formatInvariantReport(report)}`);
}

testDatabaseRegistry.beforeClose.push(assertLedgerInvariants);

afterAll(async () => {
  for (const database of testDatabaseRegistry.open) await assertLedgerInvariants(database);
});
