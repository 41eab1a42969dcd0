import { loanSettingsEndpoints } from '@meridian/contracts/loan-settings';
import { loanEndpoints } from '@meridian/contracts/loans';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../platform/http/envelope.ts';
import { noteAudit } from '../../platform/http/audit.ts';
import { currentOperator, currentUser, sensitiveActionOf } from '../../platform/http/auth.ts';
import { registerEndpoints } from '../../platform/http/endpoint.ts';
import { idempotentAnswerOf, idempotencyKeyOf } from '../../platform/http/idempotency.ts';
import type { LoansService } from './loans.service.ts';
import type { LoanSettingsService } from './loans.settings.ts';

/**
 * The loans' routes under /api (`loanEndpoints`: `loan/*` and `loan/protection`) and the
 * back office's loan settings (`loanSettingsEndpoints`, `admin/loan-settings*`, admin writes; the
 * handlers note target, before and after for the audit log).
 */
export function loansRoutes(options: {
  loans: LoansService;
  settings: LoanSettingsService;
  /** Development and e2e only (never in production): `POST /api/dev/loan/price`. */
  devPrice?: { set(price: string | null): void };
}) {
  const { loans, settings, devPrice } = options;
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
        loans.borrow(
          currentUser(request).userId,
          request.body,
          idempotencyKeyOf(request),
          sensitiveActionOf(request),
          idempotentAnswerOf(request),
        ),
      repay: async (request) =>
        loans.repay(
          currentUser(request).userId,
          request.body,
          idempotencyKeyOf(request),
          sensitiveActionOf(request),
          idempotentAnswerOf(request),
        ),
      adjust: async (request) =>
        loans.adjust(
          currentUser(request).userId,
          request.body,
          idempotencyKeyOf(request),
          sensitiveActionOf(request),
          idempotentAnswerOf(request),
        ),
      protection: async (request) => loans.protection(currentUser(request).userId, request.query.orderId),
      setProtection: async (request) =>
        loans.setProtection(currentUser(request).userId, request.body, sensitiveActionOf(request)),
    });

    registerEndpoints(app, loanSettingsEndpoints, {
      getLoanSettings: async () => settings.view(),
      updateLoanTerm: async (request) => {
        const { before, after, settings: view } = await settings.updateTerm(request.params.termDays, request.body);
        noteAudit(request, { targetType: 'loan-term', targetId: String(request.params.termDays), before, after });
        return view;
      },
      updateLoanCoin: async (request) => {
        const { before, after, settings: view } = await settings.updateCoin(request.params.coin, request.body);
        noteAudit(request, { targetType: 'loan-coin', targetId: request.params.coin, before, after });
        return view;
      },
      updateLoanLimits: async (request) => {
        const { before, after, settings: view } = await settings.updateLimits(request.body.maxOutstandingUsd);
        noteAudit(request, { targetType: 'loan-settings', targetId: 'limits', before, after });
        return view;
      },
      proposeLoanRisk: async (request) => {
        const change = await settings.propose(currentOperator(request), request.body);
        noteAudit(request, {
          targetType: 'loan-setting-change',
          targetId: String(change.id),
          before: change.before,
          after: change.after,
        });
        return change;
      },
      approveLoanSettingChange: async (request) => {
        noteAudit(request, { targetType: 'loan-setting-change', targetId: String(request.params.id) });
        const change = await settings.approve(currentOperator(request), request.params.id);
        noteAudit(request, { before: change.before, after: change.after });
        return change;
      },
      rejectLoanSettingChange: async (request) => {
        noteAudit(request, { targetType: 'loan-setting-change', targetId: String(request.params.id) });
        const change = await settings.reject(currentOperator(request), request.params.id);
        noteAudit(request, { before: { status: 'proposed' }, after: { status: change.status } });
        return change;
      },
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
