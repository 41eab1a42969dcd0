import { backOfficeBroadcastEndpoints } from '@meridian/contracts/back-office';
import type { FastifyInstance } from 'fastify';
import { noteAudit } from '../../platform/http/audit.ts';
import { currentOperator } from '../../platform/http/auth.ts';
import { registerEndpoints } from '../../platform/http/endpoint.ts';
import type { Broadcasts } from './admin.broadcasts.ts';

/**
 * Broadcast messages in the back office, registered from
 * `backOfficeBroadcastEndpoints` (`/api/admin/broadcasts`): listed by support, compliance and admin,
 * sent by compliance and admin (roles checked from the descriptors). The send is audited by the
 * platform's hook, with the broadcast as its target and after.
 */
export function backOfficeBroadcastRoutes(broadcasts: Broadcasts) {
  return async function register(app: FastifyInstance): Promise<void> {
    registerEndpoints(app, backOfficeBroadcastEndpoints, {
      listBroadcasts: async (request) => broadcasts.list(request.query),
      sendBroadcast: async (request) => {
        const broadcast = await broadcasts.send(currentOperator(request), request.body);
        noteAudit(request, { targetType: 'broadcast', targetId: broadcast.id, before: null, after: broadcast });
        return broadcast;
      },
    });
  };
}
