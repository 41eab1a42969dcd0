import type { Clock } from '../../platform/clock/clock.ts';
import type { FastifyBaseLogger } from 'fastify';
import webPush from 'web-push';
import type { Config } from '../../config.ts';
import type { AppModule } from '../../platform/app-module.ts';
import type { Database } from '../../platform/db/client.ts';
import type { Mailer } from '../../platform/mail/mailer.ts';
import { createWebPushSender, readOrCreateVapidKeys } from '../../platform/push/web-push.ts';
import { SseHub } from '../../platform/realtime/sse-hub.ts';
import type { IdentityService } from '../identity/identity.service.ts';
import { securityEventNotice } from './notices.events.ts';
import { noticeRoutes } from './notices.routes.ts';
import { NoticeService } from './notices.service.ts';

/** What `buildApp` hands the notices module. */
export interface NoticesModuleDeps {
  config: Config;
  database: Database;
  /** The app's clock (docs/clock.md). */
  clock: Clock;
  /** Recipients (email, language, switches) and the security events the user is told about. */
  identity: IdentityService;
  /** The identity module's outbox: important messages are also mailed through it. */
  mailer: Mailer;
  log: FastifyBaseLogger;
}

/**
 * Wire the notification service with its realtime hub and Web Push sender (VAPID keys from the
 * configuration, generated in memory for a memory database, or kept in DATA_DIR). Messages are
 * written in the user's language and important ones mailed; every security event the identity
 * module reports becomes a message. `start` listens for new messages (other processes' too),
 * `stop` closes open streams before the server closes.
 */
export function createNoticesModule(deps: NoticesModuleDeps): AppModule<NoticeService> {
  const { config, identity } = deps;
  const vapidKeys =
    config.vapidKeys ??
    (config.database.kind === 'memory' ? webPush.generateVAPIDKeys() : readOrCreateVapidKeys(config.dataDir));
  const hub = new SseHub();
  const service = new NoticeService({
    database: deps.database,
    clock: deps.clock,
    hub,
    push: createWebPushSender(vapidKeys, config.vapidSubject),
    recipientsOf: (userIds, db) => identity.recipientsOf(userIds, db),
    mail: (to, subject, text) => deps.mailer.send({ to, subject, text, tag: 'notice' }),
    freezeLinkOf: (userId) => identity.issueFreezeLink(userId),
    log: deps.log,
  });
  identity.addSecurityEventListener(async (event) => {
    const notice = securityEventNotice(event);
    if (notice) await service.notify(notice);
  });
  return {
    service,
    routes: noticeRoutes(service, hub, vapidKeys.publicKey),
    jobs: [],
    start: () => service.start(),
    stop: async () => {
      hub.closeAll();
      await service.stop();
    },
  };
}
