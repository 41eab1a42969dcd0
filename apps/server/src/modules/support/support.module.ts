import type { AppModule } from '../../platform/app-module.ts';
import type { Database } from '../../platform/db/client.ts';
import type { Clock } from '../../platform/clock/clock.ts';
import type { IdentityService } from '../identity/identity.service.ts';
import type { NoticeService } from '../notices/notices.service.ts';
import { supportRoutes } from './support.routes.ts';
import { SupportService } from './support.service.ts';

/** What `buildApp` hands the support module. */
export interface SupportModuleDeps {
  database: Database;
  /** The account closure a DONE deletion request runs, and the customers' emails for the list. */
  identity: Pick<IdentityService, 'closeAccount' | 'emailsOf'>;
  notices: Pick<NoticeService, 'notify'>;
  clock: Clock;
}

/**
 * Wire support requests (docs/back-office.md): the customer's
 * account-deletion request and the back office's queue. No jobs.
 */
export function createSupportModule(deps: SupportModuleDeps): AppModule<SupportService> {
  const service = new SupportService({
    db: deps.database.db,
    closeAccount: (userId, meta) => deps.identity.closeAccount(userId, meta),
    emailsOf: (userIds) => deps.identity.emailsOf(userIds),
    notify: (input, tx) => deps.notices.notify(input, tx),
    now: () => deps.clock.now(),
  });
  return { service, routes: supportRoutes(service), jobs: [] };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Support requests (tests). */
    support: SupportService;
  }
}
