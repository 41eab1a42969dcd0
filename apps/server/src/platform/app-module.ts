import type { Locale } from '@meridian/contracts/locale';
import type { FastifyPluginAsync } from 'fastify';
import type { JobDefinition } from './jobs/scheduler.ts';

/**
 * Something a module holds for a user (a balance, an open loan) that forbids closing the account
 * while it lasts; the identity module asks every checker before a closure.
 */
export interface HoldingsChecker {
  /** Reasons (in `locale`) to refuse closing `userId`'s account; [] when nothing is held. */
  reasonsToRefuseClosure(userId: string, locale: Locale): Promise<string[]>;
}

/**
 * The one shape of a server module: what `create<Name>Module(deps)` in
 * `modules/<name>/<name>.module.ts` returns, and all `buildApp` does with it.
 */
export interface AppModule<Service> {
  /** What other modules, CLIs and tests call; `buildApp` decorates the app with it. */
  service: Service;
  /** The module's HTTP routes as one Fastify plugin, registered under /api; null when it has none. */
  routes: FastifyPluginAsync | null;
  /** Periodic work, registered with the app's job scheduler. */
  jobs: JobDefinition<unknown>[];
  /** Told about every account closure, to refuse it while the module holds something of the user's. */
  holdingsChecker?: HoldingsChecker;
  /** Run once the app is ready (database listeners, background loops). */
  start?: () => Promise<void>;
  /** Run before the app closes, after which the database closes (stop listeners, close streams). */
  stop?: () => Promise<void>;
}
