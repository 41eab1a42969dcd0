import { calendarEndpoints } from '@meridian/contracts/calendar';
import type { FastifyInstance } from 'fastify';
import { currentUser } from '../../platform/http/auth.ts';
import { registerEndpoints } from '../../platform/http/endpoint.ts';
import { requestLocale } from '../../platform/http/locale.ts';
import { perIpLimit } from '../../platform/ratelimit/rate-limit.ts';
import type { CalendarService } from './calendar.service.ts';

/** Feed requests per IP per minute: calendar apps poll every few hours; a guesser is slowed down. */
export const CALENDAR_FEED_IP_LIMIT_PER_MINUTE = 30;

/** The calendar routes under /api: the user's events, the feed address and its rotation, the public feed. */
export function calendarRoutes(calendar: CalendarService) {
  return async function register(app: FastifyInstance): Promise<void> {
    registerEndpoints(app, calendarEndpoints, {
      events: async (request) =>
        calendar.events(currentUser(request).userId, request.query.from, request.query.to, requestLocale(request)),
      getFeed: async (request) => calendar.feed(currentUser(request).userId),
      rotateFeed: async (request) => calendar.rotate(currentUser(request).userId),
      ics: [
        async (request, reply) => {
          const text = await calendar.ics(request.params.file.slice(0, -'.ics'.length));
          // A string with a non-JSON type is sent as is (Fastify serialises only JSON answers).
          reply
            .type('text/calendar; charset=utf-8')
            .header('cache-control', 'private, max-age=300')
            .header('content-disposition', 'inline; filename="meridian.ics"');
          return text;
        },
        { rateLimit: perIpLimit(CALENDAR_FEED_IP_LIMIT_PER_MINUTE, 60_000) },
      ],
    });
  };
}
