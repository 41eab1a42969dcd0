import { type FundSettingChange, fundSettingsEndpoints } from '@meridian/contracts/fund-settings';
import { fundWireEndpoints } from '@meridian/contracts/fund-wires';
import { fundEndpoints } from '@meridian/contracts/funds';
import type { FastifyInstance } from 'fastify';
import { noteAudit } from '../../platform/http/audit.ts';
import { currentOperator, currentUser, sensitiveActionOf } from '../../platform/http/auth.ts';
import { registerEndpoints } from '../../platform/http/endpoint.ts';
import { idempotentAnswerOf, idempotencyKeyOf } from '../../platform/http/idempotency.ts';
import { requestLocale } from '../../platform/http/locale.ts';
import type { FundsService } from './funds.service.ts';
import type { FundSettingsService } from './funds.settings.ts';

/** The state every decided change had before its decision: proposed, undecided. */
function asProposed(change: FundSettingChange): FundSettingChange {
  return { ...change, status: 'proposed', decidedBy: null, decidedAt: null };
}

/**
 * HTTP routes of the funds (`fund/v2/*`), the operators' wires (`admin/wires*`, role
 * finance) and fund products (`admin/fund-products*`, admin writes; rate tiers four-eyes through the
 * settings workflow), mounted under /api: one table
 * of handlers per descriptor object. Operator writes are audited by the platform's hook; the
 * handlers note the target, the reason and the state before and after.
 */
export function fundsRoutes(options: { funds: FundsService; fundSettings: FundSettingsService }) {
  const { funds, fundSettings } = options;
  return async function register(app: FastifyInstance): Promise<void> {
    registerEndpoints(app, fundEndpoints, {
      asset: async (request) => funds.asset(currentUser(request).userId),
      order: async (request) => funds.orders(currentUser(request).userId, request.query, requestLocale(request)),
      product: async (request) =>
        funds.listProducts(currentUser(request).userId, requestLocale(request), request.query.type),
      config: async (request) => funds.config(requestLocale(request)),
      earnings: async (request) => funds.earnings(currentUser(request).userId, request.query.days),
      subscribe: async (request) =>
        funds.subscribe(
          currentUser(request).userId,
          request.body,
          idempotencyKeyOf(request),
          sensitiveActionOf(request),
          requestLocale(request),
          idempotentAnswerOf(request),
        ),
      redeem: async (request) =>
        funds.redeem(
          currentUser(request).userId,
          request.body,
          idempotencyKeyOf(request),
          sensitiveActionOf(request),
          requestLocale(request),
          idempotentAnswerOf(request),
        ),
    });
    registerEndpoints(app, fundWireEndpoints, {
      recordWire: async (request) => funds.recordWire(currentOperator(request).email, request.body),
      listWires: async (request) => funds.listWires(request.query),
      applySuspenseWire: async (request) => {
        noteAudit(request, { targetType: 'wire', targetId: request.params.id, reason: request.body.note });
        const applied = await funds.applySuspenseWire(request.params.id, currentOperator(request).email, request.body);
        noteAudit(request, { before: { status: 'SUSPENSE' }, after: applied });
        return applied;
      },
      returnSuspenseWire: async (request) => {
        noteAudit(request, { targetType: 'wire', targetId: request.params.id, reason: request.body.note });
        const returned = await funds.returnSuspenseWire(
          request.params.id,
          currentOperator(request).email,
          request.body.note,
        );
        noteAudit(request, { before: { status: 'SUSPENSE' }, after: returned });
        return returned;
      },
      listOutgoingWires: async (request) => funds.listOutgoingWires(request.query),
      markWireSent: async (request) =>
        funds.markWireSent(request.params.id, currentOperator(request).email, request.body.note),
      markWireFailed: async (request) =>
        funds.markWireFailed(request.params.id, currentOperator(request).email, request.body.note),
    });
    registerEndpoints(app, fundSettingsEndpoints, {
      listFundProducts: async () => funds.listForOperators(),
      createFixedFund: async (request) => {
        const created = await funds.createFixedFund(request.body);
        noteAudit(request, { targetType: 'fund-product', targetId: created.productId, before: null, after: created });
        return created;
      },
      proposeRateTiers: async (request) => {
        noteAudit(request, { targetType: 'fund-product', targetId: request.params.id });
        const proposed = await fundSettings.proposeTiers(
          currentOperator(request),
          request.params.id,
          request.body.tiers,
        );
        noteAudit(request, { before: { tiers: proposed.before.tiers }, after: proposed });
        return proposed;
      },
      listFundSettingChanges: async () => fundSettings.list(),
      approveFundSettingChange: async (request) => {
        noteAudit(request, { targetType: 'fund-setting-change', targetId: request.params.id });
        const change = await fundSettings.approve(currentOperator(request), request.params.id);
        noteAudit(request, { before: asProposed(change), after: change });
        return change;
      },
      rejectFundSettingChange: async (request) => {
        noteAudit(request, { targetType: 'fund-setting-change', targetId: request.params.id });
        const change = await fundSettings.reject(currentOperator(request), request.params.id);
        noteAudit(request, { before: asProposed(change), after: change });
        return change;
      },
      setFundActive: async (request) => {
        const { before, after } = await funds.setProductActive(request.params.id, request.body.isActive);
        noteAudit(request, { targetType: 'fund-product', targetId: request.params.id, before, after });
        return after;
      },
    });
  };
}
