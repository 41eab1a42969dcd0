import type { Clock } from '../../platform/clock/clock.ts';
import type { AppModule } from '../../platform/app-module.ts';
import type { Database } from '../../platform/db/client.ts';
import type { KycService } from '../kyc/kyc.service.ts';
import type { NoticeService } from '../notices/notices.service.ts';
import { paymentsRoutes } from './payments.routes.ts';
import { PaymentsService } from './payments.service.ts';

/** What `buildApp` hands the payments module. */
export interface PaymentsModuleDeps {
  database: Database;
  /** The app's clock (docs/clock.md). */
  clock: Clock;
  /** The verified name an account holder must match (`verifiedNameOf`). */
  kyc: KycService;
  /** Additions and removals are messaged to the user. */
  notices: NoticeService;
}

/**
 * Wire bank accounts for USD wires: the service (also `findBankAccount` for the funds
 * module) and the routes `fund/investor/bankAccount/*`. No jobs; nothing to hold against closing an
 * account (a bound account holds no money).
 */
export function createPaymentsModule(deps: PaymentsModuleDeps): AppModule<PaymentsService> {
  const service = new PaymentsService({
    db: deps.database.db,
    verifiedNameOf: (userId, db) => deps.kyc.verifiedNameOf(userId, db),
    notify: (input, tx) => deps.notices.notify(input, tx),
    clock: deps.clock,
  });
  return { service, routes: paymentsRoutes(service), jobs: [] };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Bank accounts (the funds module in process, CLIs and tests). */
    payments: PaymentsService;
  }
}
