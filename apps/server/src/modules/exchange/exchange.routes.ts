import { exchangeEndpoints } from '@meridian/contracts/exchange';
import type { FastifyInstance } from 'fastify';
import { currentUser } from '../../platform/http/auth.ts';
import { registerEndpoints } from '../../platform/http/endpoint.ts';
import { idempotentAnswerOf } from '../../platform/http/idempotency.ts';
import type { ExchangeService } from './exchange.service.ts';

/** Quotes one user may ask for per minute. */
const QUOTES_PER_USER_PER_MINUTE_MAX = 300;

/**
 * HTTP routes of the exchange (`exchange/rate`, `exchange/swap`; flash exchange and
 * swap history: docs/exchange.md), mounted under /api, registered from `exchangeEndpoints`.
 */
export function exchangeRoutes(exchange: ExchangeService) {
  return async function register(app: FastifyInstance): Promise<void> {
    registerEndpoints(app, exchangeEndpoints, {
      quote: [
        async (request) => exchange.quote(currentUser(request).userId, request.query),
        // Each quote is a stored row: bounded per user (a screen refreshing its quote every 10 s asks 6 a minute).
        {
          rateLimit: {
            max: QUOTES_PER_USER_PER_MINUTE_MAX,
            timeWindow: 60_000,
            keyGenerator: (request) => request.auth?.userId ?? request.ip,
          },
        },
      ],
      swap: async (request) =>
        exchange.swap(currentUser(request).userId, request.body.quoteId, idempotentAnswerOf(request)),
      flash: async (request) => exchange.flash(currentUser(request).userId, request.body, idempotentAnswerOf(request)),
      listSwaps: async (request) => exchange.listSwaps(currentUser(request).userId, request.query),
    });
  };
}
