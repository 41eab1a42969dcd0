import { opsSupportEndpoints, supportEndpoints } from '@meridian/contracts/support';
import type { FastifyInstance } from 'fastify';
import { noteAudit } from '../../platform/http/audit.ts';
import { currentOperator, currentUser, sensitiveActionOf } from '../../platform/http/auth.ts';
import { registerEndpoints } from '../../platform/http/endpoint.ts';
import { requestLocale } from '../../platform/http/locale.ts';
import type { SupportService } from './support.service.ts';

/**
 * HTTP routes of support requests, mounted under /api: the customer's
 * `support/deletion` (read; send, a sensitive action), and the back office's
 * `admin/support/requests*` (roles from the descriptors). Every operator write is audited by the
 * platform's hook with the request (target `support-request`) before and after and the reply as
 * the reason; a refused decision (111 while the user holds funds) is audited with its code.
 */
export function supportRoutes(support: SupportService) {
  return async function register(app: FastifyInstance): Promise<void> {
    registerEndpoints(app, supportEndpoints, {
      deletionState: async (request) => support.deletionState(currentUser(request).userId),
      requestDeletion: async (request) => {
        await sensitiveActionOf(request).verify();
        return support.requestDeletion(currentUser(request).userId, request.body.reason);
      },
    });

    registerEndpoints(app, opsSupportEndpoints, {
      listSupportRequests: async (request) => support.list(request.query),
      replySupportRequest: async (request) => {
        noteAudit(request, { targetType: 'support-request', targetId: request.params.id, reason: request.body.reply });
        const { before, after } = await support.reply(
          request.params.id,
          request.body.reply,
          currentOperator(request).email,
        );
        noteAudit(request, { before, after });
        return after;
      },
      decideSupportRequest: async (request) => {
        noteAudit(request, { targetType: 'support-request', targetId: request.params.id, reason: request.body.reply });
        const { before, after } = await support.decide(
          request.params.id,
          request.body,
          currentOperator(request).email,
          requestLocale(request),
        );
        noteAudit(request, { before, after });
        return after;
      },
    });
  };
}
