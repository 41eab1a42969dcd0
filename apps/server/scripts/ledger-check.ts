/**
 * `npm run ledger:check`: verify the ledger invariants (ARCHITECTURE §4) on the configured database
 * (DATABASE_URL, or the embedded PGlite in DATA_DIR — stop the server first, it holds the lock) and
 * print each. Exit code 0 when all hold, 1 when any is broken, 2 when the database cannot be opened.
 */
import { loadConfig } from '../src/config.ts';
import { checkLedgerInvariants, formatInvariantReport } from '../src/modules/ledger/ledger.invariants.ts';
import { openDatabase } from '../src/platform/db/client.ts';
import { findMigrationsDir } from '../src/platform/db/migrate.ts';

async function main(): Promise<number> {
  const config = loadConfig();
  let database;
  try {
    database = await openDatabase(config.database);
  } catch (error) {
    console.error(`cannot open the database: ${error instanceof Error ? error.message : String(error)}`);
    return 2;
  }
  try {
    await database.migrate(findMigrationsDir());
    const report = await checkLedgerInvariants(database.db);
    console.log(`database: ${database.kind}`);
    console.log(formatInvariantReport(report));
    return report.isHeld ? 0 : 1;
  } finally {
    await database.close();
  }
}

process.exitCode = await main();
