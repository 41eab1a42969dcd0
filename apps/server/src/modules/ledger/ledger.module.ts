import type { AppModule } from '../../platform/app-module.ts';
import type { Database } from '../../platform/db/client.ts';
import { ledgerHoldingsChecker } from './ledger.service.ts';

/** What `buildApp` hands the ledger module. */
export interface LedgerModuleDeps {
  database: Database;
}

/**
 * Wire the ledger. It has no service object, routes or jobs: its functions (`postEntry`,
 * `accountBalance`, … in `ledger.service.ts`) take the caller's transaction, so a balance change
 * commits with the row that explains it. It contributes the holdings checker: an account holding
 * any balance cannot be closed.
 */
export function createLedgerModule(deps: LedgerModuleDeps): AppModule<null> {
  return { service: null, routes: null, jobs: [], holdingsChecker: ledgerHoldingsChecker(deps.database.db) };
}
