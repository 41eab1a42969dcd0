import { type Adjustment, backOfficeAdjustmentEndpoints } from '@meridian/contracts/back-office';
import type { FastifyInstance } from 'fastify';
import { noteAudit } from '../../platform/http/audit.ts';
import { currentOperator } from '../../platform/http/auth.ts';
import { registerEndpoints } from '../../platform/http/endpoint.ts';
import type { ManualAdjustments } from './admin.adjustments.ts';

/** The state every decided adjustment had before its decision: proposed, undecided. */
function asProposed(adjustment: Adjustment): Adjustment {
  return { ...adjustment, status: 'proposed', decidedBy: null, decidedAt: null, decisionNote: null, entryId: null };
}

/**
 * Manual adjustments in the back office (four eyes), registered from
 * `backOfficeAdjustmentEndpoints` (`/api/admin/adjustments…`; roles are declared on each descriptor,
 * the audit row is written by the platform's hook: each write notes its target and before/after).
 */
export function backOfficeAdjustmentRoutes(adjustments: ManualAdjustments) {
  return async function register(app: FastifyInstance): Promise<void> {
    registerEndpoints(app, backOfficeAdjustmentEndpoints, {
      listAdjustments: async (request) => adjustments.list(request.query),
      proposeAdjustment: async (request) => {
        const adjustment = await adjustments.propose(currentOperator(request), request.body);
        noteAudit(request, { targetType: 'adjustment', targetId: adjustment.id, before: null, after: adjustment });
        return adjustment;
      },
      approveAdjustment: async (request) => {
        noteAudit(request, { targetType: 'adjustment', targetId: request.params.id });
        const adjustment = await adjustments.approve(currentOperator(request), request.params.id);
        noteAudit(request, { before: asProposed(adjustment), after: adjustment, reason: adjustment.reason });
        return adjustment;
      },
      rejectAdjustment: async (request) => {
        noteAudit(request, { targetType: 'adjustment', targetId: request.params.id });
        const adjustment = await adjustments.reject(currentOperator(request), request.params.id, request.body.reason);
        noteAudit(request, { before: asProposed(adjustment), after: adjustment });
        return adjustment;
      },
    });
  };
}
