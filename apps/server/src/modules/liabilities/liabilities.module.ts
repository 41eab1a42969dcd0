import type { AppModule } from '../../platform/app-module.ts';
import type { Database } from '../../platform/db/client.ts';
import { liabilitiesRoutes } from './liabilities.routes.ts';
import { type LedgerAccountHolders, LiabilitiesService } from './liabilities.service.ts';

/** What `buildApp` hands the liabilities module: the database (it reads the ledger through the ledger's service). */
export interface LiabilitiesModuleDeps {
  database: Database;
  log: { info(detail: object, message: string): void };
  /** The trust and cards modules' maps from their ledger owners to users (trusts' and cards' balances join their user's leaf). */
  accountHolders: LedgerAccountHolders[];
}

/** Period of the snapshot job: one UTC day. */
export const LIABILITIES_SNAPSHOT_PERIOD_MS = 86_400_000;

/**
 * Wire proof of liabilities (docs/liabilities.md): routes `liabilities/*` and the
 * operators' `admin/liabilities/compare`, and the daily job `liabilities.daily`, which runs once per
 * UTC day across every server process (the scheduler's leader for that period) and builds the
 * snapshot of that day in the job's transaction.
 */
export function createLiabilitiesModule(deps: LiabilitiesModuleDeps): AppModule<LiabilitiesService> {
  const service = new LiabilitiesService({ db: deps.database.db, log: deps.log, accountHolders: deps.accountHolders });
  return {
    service,
    routes: liabilitiesRoutes({ liabilities: service }),
    jobs: [
      {
        name: 'liabilities.daily',
        periodMs: LIABILITIES_SNAPSHOT_PERIOD_MS,
        run: async ({ periodStartAt, tx }) =>
          void (await service.buildSnapshot(periodStartAt.toISOString().slice(0, 10), tx)),
      },
    ],
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Proof of liabilities (CLIs and tests). */
    liabilities: LiabilitiesService;
  }
}
