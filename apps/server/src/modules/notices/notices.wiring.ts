import type { FastifyInstance } from 'fastify';
import webPush from 'web-push';
import type { Config } from '../../config.ts';
import type { Database } from '../../platform/db/client.ts';
import { createWebPushSender, readOrCreateVapidKeys } from '../../platform/push/web-push.ts';
import { SseHub } from '../../platform/realtime/sse-hub.ts';
import { noticeRoutes } from './notices.routes.ts';
import { type NoticeMailer, NoticeService, type RecipientLookup } from './notices.service.ts';

export interface NoticeWiring {
  recipientsOf: RecipientLookup;
  mail?: NoticeMailer;
}

/**
 * Build the notification service with its realtime hub and Web Push sender, register its routes
 * under /api, and tie its listener to the app's life: it starts listening when the app is ready
 * and closes open streams before the server closes.
 */
export async function registerNotices(app: FastifyInstance, config: Config, database: Database, wiring: NoticeWiring): Promise<NoticeService> {
  const vapidKeys =
    config.vapidKeys ?? (config.database.kind === 'memory' ? webPush.generateVAPIDKeys() : readOrCreateVapidKeys(config.dataDir));
  const hub = new SseHub();
  const notices = new NoticeService({
    database,
    hub,
    push: createWebPushSender(vapidKeys, config.vapidSubject),
    recipientsOf: wiring.recipientsOf,
    mail: wiring.mail,
    log: app.log,
  });
  app.addHook('onReady', async () => notices.start());
  app.addHook('preClose', async () => {
    hub.closeAll();
    await notices.stop();
  });
  await app.register(noticeRoutes(notices, hub, vapidKeys.publicKey), { prefix: '/api' });
  return notices;
}
