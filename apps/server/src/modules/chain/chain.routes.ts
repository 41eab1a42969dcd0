import { chainOpsEndpoints } from '@meridian/contracts/chain-ops';
import { chainWithdrawalEndpoints } from '@meridian/contracts/chain-withdrawals';
import type { FastifyInstance } from 'fastify';
import { noteAudit } from '../../platform/http/audit.ts';
import { currentOperator, currentUser } from '../../platform/http/auth.ts';
import { registerEndpoints } from '../../platform/http/endpoint.ts';
import type { ChainOps, ChainOpsChange } from './chain.ops.ts';
import type { ChainWithdrawalReads } from './chain.withdrawals-read.ts';

/**
 * HTTP routes of the chain module, mounted under /api:
 * - the back office's chain state, review items (approve, release, reject) and reorganisation
 *   alarms (acknowledge, resolve) (`chainOpsEndpoints`, role finance); every write is in the audit
 *   log with the state before and after;
 * - the back office's reads of the hot wallet's withdrawals and balance alerts, and the user's link
 *   to the explorer of one withdrawal (`chainWithdrawalEndpoints`).
 */
export function chainRoutes(ops: ChainOps, reads: ChainWithdrawalReads) {
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
    registerEndpoints(app, chainWithdrawalEndpoints, {
      listChainWithdrawals: async (request) => reads.list(request.query),
      hotWallet: async () => reads.hotWallet(),
      withdrawalChain: async (request) => reads.ofUser(currentUser(request).userId, Number(request.params.id)),
    });
  };
}
