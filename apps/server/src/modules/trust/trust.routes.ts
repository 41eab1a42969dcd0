import { businessMessage } from '@meridian/contracts/codes';
import { opsTrustEndpoints, trustEndpoints } from '@meridian/contracts/trust';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { noteAudit } from '../../platform/http/audit.ts';
import { currentOperator, currentUser, sensitiveActionOf } from '../../platform/http/auth.ts';
import { registerEndpoints } from '../../platform/http/endpoint.ts';
import { idempotentAnswerOf, idempotencyKeyOf } from '../../platform/http/idempotency.ts';
import { DomainError } from '../../platform/http/errors.ts';
import { requestLocale } from '../../platform/http/locale.ts';
import type { TrustService } from './trust.service.ts';

/**
 * An amount under the minimum (132) is a refusal of the `amount` field: its content names the field
 * with the message in the caller's language, so the fund modal shows it under the amount.
 */
async function withMinimumOnAmount<T>(request: FastifyRequest, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof DomainError) || error.code !== 'AMOUNT_BELOW_MIN') throw error;
    const message = businessMessage(error.code, requestLocale(request), error.params);
    throw new DomainError(error.code, error.params, { fields: [{ field: 'amount', message }] });
  }
}

/**
 * The trust's routes under /api: the settlor's calls (`trustEndpoints`, level 2) and the back
 * office's (`opsTrustEndpoints`: list for compliance and finance, release for finance; every write
 * is recorded by the platform's audit hook, with what the handler notes).
 */
export function trustRoutes(options: { trust: TrustService }) {
  const { trust } = options;
  return async function register(app: FastifyInstance): Promise<void> {
    registerEndpoints(app, trustEndpoints, {
      listTrusts: async (request) => trust.list(currentUser(request).userId),
      createTrust: async (request) => trust.create(currentUser(request).userId, request.body),
      getTrust: async (request) => trust.detail(currentUser(request).userId, request.params.id, request.query),
      fundTrust: async (request) =>
        withMinimumOnAmount(request, () =>
          trust.fund(
            currentUser(request).userId,
            request.params.id,
            request.body.amount,
            idempotencyKeyOf(request),
            sensitiveActionOf(request),
            idempotentAnswerOf(request),
          ),
        ),
      withdrawTrust: async (request) =>
        trust.withdraw(
          currentUser(request).userId,
          request.params.id,
          request.body.amount,
          idempotencyKeyOf(request),
          sensitiveActionOf(request),
          idempotentAnswerOf(request),
        ),
    });
    registerEndpoints(app, opsTrustEndpoints, {
      listTrusts: async (request) => trust.listForOperators(request.query),
      releaseTrust: async (request) => {
        noteAudit(request, { targetType: 'trust', targetId: request.params.id, reason: request.body.verificationNote });
        const released = await trust.release(request.params.id, currentOperator(request).email, request.body);
        noteAudit(request, { before: { state: 'claim' }, after: released });
        return released;
      },
    });
  };
}
