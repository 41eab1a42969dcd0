import { backOfficeUserEndpoints } from '@meridian/contracts/back-office';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { noteAudit } from '../../platform/http/audit.ts';
import { currentOperator } from '../../platform/http/auth.ts';
import { registerEndpoints } from '../../platform/http/endpoint.ts';
import type { ActingOperator, BackOfficeUsers, UserChange } from './admin.users.ts';

/** The operator of the request with its IP, as `BackOfficeUsers` records it. */
function actingOperator(request: FastifyRequest): ActingOperator {
  const operator = currentOperator(request);
  return { id: operator.id, email: operator.email, ip: request.ip ?? null };
}

/** Tell the audit trail what a user action changed, and answer the user's page. */
function audited(request: FastifyRequest, userId: string, reason: string, change: UserChange) {
  noteAudit(request, { targetType: 'user', targetId: userId, before: change.before, after: change.after, reason });
  return change.detail;
}

/**
 * The back office's user calls (`backOfficeUserEndpoints`: dashboard, search, a user's
 * page, freeze, unfreeze, 2FA reset, notes), mounted under /api. Roles are checked from each
 * descriptor before the handler (`platform/http/auth.ts`); every write is recorded in the audit log
 * by the audit hook, with the before/after each handler notes here.
 */
export function backOfficeUserRoutes(users: BackOfficeUsers) {
  return async function register(app: FastifyInstance): Promise<void> {
    registerEndpoints(app, backOfficeUserEndpoints, {
      dashboard: async () => users.dashboard(),
      searchUsers: async (request) => users.search(request.query),
      showUser: async (request) => users.show(request.params.userId),
      freezeUser: async (request) =>
        audited(
          request,
          request.params.userId,
          request.body.reason,
          await users.freeze(actingOperator(request), request.params.userId, request.body.reason),
        ),
      unfreezeUser: async (request) =>
        audited(
          request,
          request.params.userId,
          request.body.reason,
          await users.unfreeze(actingOperator(request), request.params.userId, request.body.reason),
        ),
      resetUserTotp: async (request) =>
        audited(
          request,
          request.params.userId,
          request.body.reason,
          await users.resetTotp(actingOperator(request), request.params.userId, request.body.reason),
        ),
      addUserNote: async (request) => {
        const note = await users.addNote(actingOperator(request), request.params.userId, request.body.text);
        noteAudit(request, { targetType: 'user', targetId: request.params.userId, after: { noteId: note.id } });
        return note;
      },
    });
  };
}
