import type { AppModule } from '../../platform/app-module.ts';
import type { Database } from '../../platform/db/client.ts';
import type { Mailer } from '../../platform/mail/mailer.ts';
import type { Clock } from '../../platform/clock/clock.ts';
import type { IdentityService } from '../identity/identity.service.ts';
import type { NoticeService } from '../notices/notices.service.ts';
import { trustRoutes } from './trust.routes.ts';
import { createTrustService, type TrustService } from './trust.service.ts';

/** What `buildApp` hands the trust module. */
export interface TrustModuleDeps {
  database: Database;
  /** Frozen accounts, last sign-ins (inactivity switch), recipients' language and email. */
  identity: Pick<IdentityService, 'assertNotFrozen' | 'lastSignInAtOf' | 'recipientsOf'>;
  /** The settlor's in-app messages. */
  notices: Pick<NoticeService, 'notifyMany'>;
  /** The identity module's outbox: reminder and beneficiary mails, queued in the job's transaction. */
  outbox: {
    enqueue(
      message: Parameters<Mailer['send']>[0],
      tx?: Parameters<IdentityService['recipientsOf']>[1],
    ): Promise<unknown>;
  };
  clock: Clock;
  log: { info(detail: object, message: string): void };
}

/**
 * Wire the BTC trust: the settlor's routes `trust/*` and the operators' `admin/trusts*`,
 * the holdings checker (an account holding a trust cannot be closed) and one daily job, the
 * inactivity switch (reminders 30, 14 and 3 days before the deadline, then claim).
 */
export function createTrustModule(deps: TrustModuleDeps): AppModule<TrustService> {
  const service = createTrustService({
    db: deps.database.db,
    identity: {
      assertNotFrozen: (userId, db) => deps.identity.assertNotFrozen(userId, db),
      lastSignInAtOf: (userIds, db) => deps.identity.lastSignInAtOf(userIds, db),
      recipientsOf: (userIds, db) => deps.identity.recipientsOf(userIds, db),
    },
    notifyMany: (inputs, tx) => deps.notices.notifyMany(inputs, tx),
    enqueueMail: (message, tx) => deps.outbox.enqueue(message, tx),
    now: () => deps.clock.now(),
    log: deps.log,
  });
  return {
    service,
    routes: trustRoutes({ trust: service }),
    jobs: [
      {
        name: 'trust.inactivity-switch',
        periodMs: 86_400_000,
        run: async ({ now, tx }) => void (await service.runInactivity(now, tx)),
      },
    ],
    holdingsChecker: service.holdingsChecker,
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The BTC trust service (CLIs and tests). */
    trust: TrustService;
  }
}
