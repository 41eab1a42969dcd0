import { envelopeSchema } from '@meridian/contracts/envelope';
import {
  HEADER_DEVICE_NAME,
  messageIdParamsSchema,
  messageListContentSchema,
  messageListQuerySchema,
  pushTokenBodySchema,
  unreadCountContentSchema,
  vapidKeyContentSchema,
} from '@meridian/contracts/notices';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../platform/http/auth.ts';
import { ok } from '../../platform/http/envelope.ts';
import { requestedLocale } from '../../platform/http/locale.ts';
import type { SseHub } from '../../platform/realtime/sse-hub.ts';
import type { NoticeService } from './notices.service.ts';

/** Message centre routes (spec §7 notices, base /api/notice). */
export function noticeRoutes(notices: NoticeService, hub: SseHub, vapidPublicKey: string | undefined) {
  return async function register(app: FastifyInstance): Promise<void> {
    const routes = app.withTypeProvider<ZodTypeProvider>();
    const tags = ['notices'];

    routes.get(
      '/notice/message/list',
      {
        config: { auth: 'user' },
        schema: { tags, summary: 'A page of messages, newest first, with the unread count', querystring: messageListQuerySchema, response: { 200: envelopeSchema(messageListContentSchema) } },
      },
      async (request) => ok(request, await notices.list(currentUser(request).userId, request.query, requestedLocale(request))),
    );

    routes.post(
      '/notice/message/:id/read',
      {
        config: { auth: 'user' },
        schema: { tags, summary: 'Mark one message read (no change when already read)', params: messageIdParamsSchema, response: { 200: envelopeSchema(unreadCountContentSchema) } },
      },
      async (request) => ok(request, { unreadCount: await notices.markRead(currentUser(request).userId, request.params.id) }),
    );

    routes.post(
      '/notice/message/readAll',
      { config: { auth: 'user' }, schema: { tags, summary: 'Mark every message read', response: { 200: envelopeSchema(unreadCountContentSchema) } } },
      async (request) => ok(request, { unreadCount: await notices.markAllRead(currentUser(request).userId) }),
    );

    routes.post(
      '/notice/fcm/token',
      {
        config: { auth: 'user' },
        schema: { tags, summary: 'Store a Web Push subscription for this device', body: pushTokenBodySchema, response: { 200: envelopeSchema(z.null()) } },
      },
      async (request) => {
        const deviceName = request.headers[HEADER_DEVICE_NAME.toLowerCase()];
        await notices.saveSubscription(currentUser(request).userId, request.body, typeof deviceName === 'string' ? deviceName : undefined);
        return ok(request, null);
      },
    );

    routes.get(
      '/notice/push/key',
      { schema: { tags, summary: 'The VAPID public key browsers subscribe with', response: { 200: envelopeSchema(vapidKeyContentSchema.nullable()) } } },
      async (request) => ok(request, vapidPublicKey ? { publicKey: vapidPublicKey } : null),
    );

    routes.get(
      '/notice/stream',
      { config: { auth: 'user' }, schema: { tags, summary: 'Server-sent events: `message` with { message, unreadCount } as messages arrive' } },
      async (request, reply) => {
        hub.attach(currentUser(request).userId, request, reply);
      },
    );
  };
}
