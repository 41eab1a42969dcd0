import { paymentsEndpoints } from '@meridian/contracts/payments';
import type { FastifyInstance } from 'fastify';
import { currentUser, sensitiveActionOf } from '../../platform/http/auth.ts';
import { registerEndpoints } from '../../platform/http/endpoint.ts';
import type { PaymentsService } from './payments.service.ts';

/**
 * HTTP routes of bank accounts (`fund/investor/bankAccount/add|delete|select`), mounted
 * under /api: one table of handlers over `paymentsEndpoints`. The descriptors demand a session,
 * identity level 2 and, for adding and removing, the security check of BANK_ACCOUNT_ADD /
 * BANK_ACCOUNT_DELETE, which the service runs after its own rules.
 */
export function paymentsRoutes(payments: PaymentsService) {
  return async function register(app: FastifyInstance): Promise<void> {
    registerEndpoints(app, paymentsEndpoints, {
      addBankAccount: async (request) => {
        const { mfaCode: _mfa, emailCaptcha: _email, securityPassword: _password, ...account } = request.body;
        return payments.addBankAccount(currentUser(request).userId, account, sensitiveActionOf(request));
      },
      deleteBankAccount: async (request) => {
        await payments.deleteBankAccount(currentUser(request).userId, request.params.id, sensitiveActionOf(request));
        return null;
      },
      listBankAccounts: async (request) => payments.listBankAccounts(currentUser(request).userId),
    });
  };
}
