import { HEADER_DEVICE_NAME, NOTICE_BASE_PATH, noticeEndpoints } from '@meridian/contracts/notices';
import { isLocale } from '@meridian/contracts/locale';
import type { FastifyInstance } from 'fastify';
import { currentUser } from '../../platform/http/auth.ts';
import { registerEndpoints } from '../../platform/http/endpoint.ts';
import { requestedLocale } from '../../platform/http/locale.ts';
import type { SseHub } from '../../platform/realtime/sse-hub.ts';
import type { NoticeService } from './notices.service.ts';

/** The prefix of the message centre under the /api the modules are mounted at. */
const NOTICE_PREFIX = NOTICE_BASE_PATH.slice('/api'.length);

/**
 * Message centre routes (base /api/notice), registered from `noticeEndpoints`,
 * and the server-sent message stream.
 */
export function noticeRoutes(notices: NoticeService, hub: SseHub, vapidPublicKey: string | undefined) {
  return async function register(app: FastifyInstance): Promise<void> {
    await app.register(
      async (notice) => {
        registerEndpoints(notice, noticeEndpoints, {
          listMessages: async (request) =>
            notices.list(currentUser(request).userId, request.query, requestedLocale(request)),
          readMessage: async (request) => ({
            unreadCount: await notices.markRead(currentUser(request).userId, request.params.id),
          }),
          readAllMessages: async (request) => ({ unreadCount: await notices.markAllRead(currentUser(request).userId) }),
          savePushToken: async (request) => {
            const deviceName = request.headers[HEADER_DEVICE_NAME.toLowerCase()];
            await notices.saveSubscription(
              currentUser(request).userId,
              request.body,
              typeof deviceName === 'string' ? deviceName : undefined,
            );
            return null;
          },
          pushKey: async () => (vapidPublicKey ? { publicKey: vapidPublicKey } : null),
        });

        // Server-sent events, not a JSON call: the hub takes the reply over (no envelope, no response schema).
        notice.get(
          '/stream',
          {
            config: { auth: 'user' },
            schema: {
              tags: ['notices'],
              summary: 'Server-sent events: `message` with { message, unreadCount } as messages arrive',
            },
          },
          async (request, reply) => {
            // An EventSource sends no User-Lang header: the tab names its language in the query.
            const lang = (request.query as { lang?: unknown } | undefined)?.lang;
            hub.attach(currentUser(request).userId, request, reply, isLocale(lang) ? lang : requestedLocale(request));
          },
        );
      },
      { prefix: NOTICE_PREFIX },
    );
  };
}
