import { chainOpsEndpoints } from '@meridian/contracts/chain-ops';
import type { FastifyInstance } from 'fastify';
import { noteAudit } from '../../platform/http/audit.ts';
import { currentOperator } from '../../platform/http/auth.ts';
import { registerEndpoints } from '../../platform/http/endpoint.ts';
import type { ChainOps, ChainOpsChange } from './chain.ops.ts';

/**
 * The chain module's back-office routes under /api/admin/chain (`chainOpsEndpoints`, role finance):
 * the watcher's state, review items (approve, release, reject) and reorganisation alarms
 * (acknowledge, resolve). Every write is in the audit log with the state before and after.
 */
export function chainRoutes(ops: ChainOps) {
  return async function register(app: FastifyInstance): Promise<void> {
    const audited = async <T>(change: Promise<ChainOpsChange<T>>, request: Parameters<typeof noteAudit>[0]) => {
      const { before, after } = await change;
      noteAudit(request, { before, after });
      return after;
    };
    registerEndpoints(app, chainOpsEndpoints, {
      getState: async () => ops.state(),
      approveReview: async (request) => {
        noteAudit(request, { targetType: 'chain-deposit', targetId: request.params.id });
        return audited(ops.approveReview(Number(request.params.id), currentOperator(request)), request);
      },
      releaseReview: async (request) => {
        noteAudit(request, { targetType: 'chain-deposit', targetId: request.params.id, reason: request.body.note });
        const operator = currentOperator(request);
        return audited(ops.releaseReview(Number(request.params.id), operator, request.body.note), request);
      },
      rejectReview: async (request) => {
        noteAudit(request, { targetType: 'chain-deposit', targetId: request.params.id, reason: request.body.note });
        const operator = currentOperator(request);
        return audited(ops.rejectReview(Number(request.params.id), operator, request.body.note), request);
      },
      acknowledgeAlarm: async (request) => {
        const note = request.body.note;
        noteAudit(request, { targetType: 'chain-reorg-alarm', targetId: request.params.id, reason: note ?? null });
        return audited(ops.acknowledgeAlarm(Number(request.params.id), currentOperator(request), note), request);
      },
      resolveAlarm: async (request) => {
        const { resolution, note } = request.body;
        noteAudit(request, { targetType: 'chain-reorg-alarm', targetId: request.params.id, reason: note });
        const operator = currentOperator(request);
        return audited(ops.resolveAlarm(Number(request.params.id), operator, resolution, note), request);
      },
    });
  };
}
