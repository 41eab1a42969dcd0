import { HEADER_IDEMPOTENCY_KEY } from '@meridian/contracts/http';
import { loanEndpoints } from '@meridian/contracts/loans';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../platform/http/envelope.ts';
import { currentUser, sensitiveActionOf } from '../../platform/http/auth.ts';
import { registerEndpoints } from '../../platform/http/endpoint.ts';
import { FieldError } from '../../platform/http/errors.ts';
import type { LoansService } from './loans.service.ts';

const IDEMPOTENCY_KEY_PATTERN = /^[\w.:-]{1,128}$/;

/** The request's `Idempotency-Key` header; a malformed one is refused naming the header. */
function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const value = request.headers[HEADER_IDEMPOTENCY_KEY.toLowerCase()];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !IDEMPOTENCY_KEY_PATTERN.test(value))
    throw new FieldError(HEADER_IDEMPOTENCY_KEY, 'validation.unknownField');
  return value;
}

/** The loans' routes under /api (`loanEndpoints`, spec §7 `loan/*` and `loan/protection`). */
export function loansRoutes(options: {
  loans: LoansService;
  /** Development and e2e only (never in production): `POST /api/dev/loan/price`. */
  devPrice?: { set(price: string | null): void };
}) {
  const { loans, devPrice } = options;
  return async function register(app: FastifyInstance): Promise<void> {
    registerEndpoints(app, loanEndpoints, {
      coins: async () => loans.coins(),
      config: async () => loans.config(),
      calc: async (request) => loans.calc(request.query),
      orderList: async (request) => loans.listOrders(currentUser(request).userId, request.query),
      asset: async (request) => loans.asset(currentUser(request).userId),
      repayRecord: async (request) => loans.repayRecords(currentUser(request).userId, request.query),
      repayCalc: async (request) => loans.repayCalc(currentUser(request).userId, request.query),
      adjustRecord: async (request) => loans.adjustRecords(currentUser(request).userId, request.query),
      adjustCalc: async (request) => loans.adjustCalc(currentUser(request).userId, request.query),
      liquidationRecord: async (request) => loans.liquidationRecords(currentUser(request).userId, request.query),
      borrow: async (request) =>
        loans.borrow(currentUser(request).userId, request.body, idempotencyKeyOf(request), sensitiveActionOf(request)),
      repay: async (request) =>
        loans.repay(currentUser(request).userId, request.body, idempotencyKeyOf(request), sensitiveActionOf(request)),
      adjust: async (request) =>
        loans.adjust(currentUser(request).userId, request.body, idempotencyKeyOf(request), sensitiveActionOf(request)),
      protection: async (request) => loans.protection(currentUser(request).userId, request.query.orderId),
      setProtection: async (request) =>
        loans.setProtection(currentUser(request).userId, request.body, sensitiveActionOf(request)),
    });

    if (devPrice) {
      // Development and e2e only, left out of the OpenAPI document (not an API call, so no descriptor):
      // set (or clear with null) the BTC price the loans module uses, then run one price event of the
      // engine (under the engine job's lock, so it never runs beside the leader's).
      app.withTypeProvider<ZodTypeProvider>().post(
        '/dev/loan/price',
        {
          schema: {
            hide: true,
            body: z.strictObject({
              price: z
                .string()
                .regex(/^\d{1,9}(\.\d{1,8})?$/)
                .nullable(),
            }),
          },
        },
        async (request) => {
          devPrice.set(request.body.price);
          return ok(request, await loans.tickEngine({ asLeader: true }));
        },
      );
    }
  };
}
