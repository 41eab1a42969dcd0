import { adminEndpoints } from '@meridian/contracts/admin';
import { opsWalletEndpoints } from '@meridian/contracts/wallet';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type EndpointPolicy, registerEndpoints } from '../../platform/http/endpoint.ts';
import { DomainError } from '../../platform/http/errors.ts';
import type { WalletService } from '../wallet/wallet.service.ts';
import type { AdminService } from './admin.service.ts';
import type { Operator, OperatorRole } from './admin.types.ts';

/** Operator callers are machines and scripts: no CSRF header asked. */
const OPS_POLICY: EndpointPolicy = { csrf: false };

/**
 * The operator API (`/api/ops/...`), mounted under /api, registered from `adminEndpoints`: bearer
 * tokens of the operators table, one role per route ('admin' may do everything).
 * A missing or unknown token answers LOGIN_EXPIRED, a role that may not answers FORBIDDEN.
 * The wallet's operator calls (`opsWalletEndpoints`, issue 15: withdrawal limits, screening alerts)
 * are registered here too and call the wallet service with the operator's email for the audit.
 */
export function adminRoutes(admin: AdminService, wallet: WalletService) {
  return async function register(app: FastifyInstance): Promise<void> {
    const operatorOf = async (request: FastifyRequest, roles: readonly OperatorRole[]): Promise<Operator> => {
      const header = request.headers.authorization;
      const token = typeof header === 'string' && header.startsWith('Bearer ') ? header.slice(7).trim() : '';
      const operator = token ? await admin.authenticateOperator(token) : undefined;
      if (!operator) throw new DomainError('LOGIN_EXPIRED');
      if (operator.role !== 'admin' && !roles.includes(operator.role)) throw new DomainError('FORBIDDEN');
      return operator;
    };
    registerEndpoints(app, adminEndpoints, {
      listWithdrawals: [
        async (request) => {
          await operatorOf(request, ['withdrawals', 'viewer']);
          return admin.listWithdrawals(request.query);
        },
        OPS_POLICY,
      ],
      processWithdrawal: [
        async (request) => admin.processWithdrawal(await operatorOf(request, ['withdrawals']), request.params.id),
        OPS_POLICY,
      ],
      completeWithdrawal: [
        async (request) =>
          admin.completeWithdrawal(await operatorOf(request, ['withdrawals']), request.params.id, request.body.txHash),
        OPS_POLICY,
      ],
      failWithdrawal: [
        async (request) =>
          admin.failWithdrawal(await operatorOf(request, ['withdrawals']), request.params.id, request.body.reason),
        OPS_POLICY,
      ],
    });
    registerEndpoints(app, opsWalletEndpoints, {
      listWithdrawalLimits: [
        async (request) => {
          await operatorOf(request, ['withdrawals', 'compliance', 'viewer']);
          return wallet.listWithdrawalLimits();
        },
        OPS_POLICY,
      ],
      setWithdrawalLimit: [
        async (request) => {
          const operator = await operatorOf(request, []);
          return wallet.setWithdrawalLimit(operator.email, request.params.level, {
            usdPer24hCents: request.body.usdPer24h,
            usdPerMonthCents: request.body.usdPerMonth,
          });
        },
        OPS_POLICY,
      ],
      listScreeningAlerts: [
        async (request) => {
          await operatorOf(request, ['compliance', 'viewer']);
          return wallet.listScreeningAlerts(request.query);
        },
        OPS_POLICY,
      ],
      releaseScreeningAlert: [
        async (request) => {
          const operator = await operatorOf(request, ['compliance']);
          return wallet.releaseScreeningAlert(operator.email, request.params.id, request.body.note ?? null);
        },
        OPS_POLICY,
      ],
      confirmScreeningAlert: [
        async (request) => {
          const operator = await operatorOf(request, ['compliance']);
          return wallet.confirmScreeningAlert(operator.email, request.params.id, request.body.note);
        },
        OPS_POLICY,
      ],
    });
  };
}
