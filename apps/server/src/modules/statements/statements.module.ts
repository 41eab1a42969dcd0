import type { AppModule } from '../../platform/app-module.ts';
import type { Database } from '../../platform/db/client.ts';
import type { Clock } from '../../platform/clock/clock.ts';
import { statementsRoutes } from './statements.routes.ts';
import { type StatementsDeps, StatementsService } from './statements.service.ts';

/** What `buildApp` hands the statements module: the database (the ledger through its service), prices, cards and trusts. */
export interface StatementsModuleDeps {
  database: Database;
  clock: Clock;
  prices: StatementsDeps['prices'];
  cards: StatementsDeps['cards'];
  loans: StatementsDeps['loans'];
  trusts: StatementsDeps['trusts'];
  log: StatementsDeps['log'];
}

/**
 * Account statements and tax exports (docs/statements.md): routes `statements/*`; no
 * jobs (generations run on demand); `stop` waits for the generations this process is running.
 */
export function createStatementsModule(deps: StatementsModuleDeps): AppModule<StatementsService> {
  const service = new StatementsService({
    db: deps.database.db,
    reads: deps.database.reads,
    clock: deps.clock,
    prices: deps.prices,
    cards: deps.cards,
    loans: deps.loans,
    trusts: deps.trusts,
    log: deps.log,
  });
  return {
    service,
    routes: statementsRoutes({ statements: service }),
    jobs: [],
    stop: async () => service.settled(),
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Account statements (tests and CLIs). */
    statements: StatementsService;
  }
}
