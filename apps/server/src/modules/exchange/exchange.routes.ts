import { envelopeSchema } from '@meridian/contracts/envelope';
import {
  exchangeQuoteSchema,
  exchangeRateQuerySchema,
  flashExchangeRequestSchema,
  swapListQuerySchema,
  swapPageSchema,
  swapRecordSchema,
  swapRequestSchema,
} from '@meridian/contracts/exchange';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { currentUser } from '../../platform/http/auth.ts';
import { ok } from '../../platform/http/envelope.ts';
import type { ExchangeService } from './exchange.service.ts';

/** Quotes one user may ask for per minute. */
const QUOTES_PER_USER_PER_MINUTE_MAX = 300;

/**
 * HTTP routes of the exchange (spec §7 `exchange/rate`, `exchange/swap`; issue 5 flash exchange and
 * swap history), mounted under /api. Quoting needs a session; executing also needs basic KYC.
 */
export function exchangeRoutes(exchange: ExchangeService) {
  return async function register(app: FastifyInstance): Promise<void> {
    const routes = app.withTypeProvider<ZodTypeProvider>();
    routes.get(
      '/exchange/rate',
      {
        // Each quote is a stored row: bounded per user (a screen refreshing its quote every 10 s asks 6 a minute).
        config: { auth: 'user', rateLimit: { max: QUOTES_PER_USER_PER_MINUTE_MAX, timeWindow: 60_000, keyGenerator: (request) => request.auth?.userId ?? request.ip } },
        schema: {
          tags: ['exchange'],
          summary: 'A firm quote for a swap, kept on the server for 10 seconds',
          querystring: exchangeRateQuerySchema,
          response: { 200: envelopeSchema(exchangeQuoteSchema) },
        },
      },
      async (request) => ok(request, await exchange.quote(currentUser(request).userId, request.query)),
    );
    routes.post(
      '/exchange/swap',
      {
        config: { auth: 'user', kyc: 'basic' },
        schema: {
          tags: ['exchange'],
          summary: 'Execute a quote, exactly once, through the ledger',
          body: swapRequestSchema,
          response: { 200: envelopeSchema(swapRecordSchema) },
        },
      },
      async (request) => ok(request, await exchange.swap(currentUser(request).userId, request.body.quoteId)),
    );
    routes.post(
      '/exchange/flash',
      {
        config: { auth: 'user', kyc: 'basic' },
        schema: {
          tags: ['exchange'],
          summary: 'Convert at the live rate in one step, refused beyond the slippage limit',
          body: flashExchangeRequestSchema,
          response: { 200: envelopeSchema(swapRecordSchema) },
        },
      },
      async (request) => ok(request, await exchange.flash(currentUser(request).userId, request.body)),
    );
    routes.get(
      '/exchange/swap/list',
      {
        config: { auth: 'user' },
        schema: {
          tags: ['exchange'],
          summary: "The user's swaps, newest first",
          querystring: swapListQuerySchema,
          response: { 200: envelopeSchema(swapPageSchema) },
        },
      },
      async (request) => ok(request, await exchange.listSwaps(currentUser(request).userId, request.query)),
    );
  };
}
