import { envelopeSchema } from '@meridian/contracts/envelope';
import { pageSchema } from '@meridian/contracts/pagination';
import { idParamSchema, opsCompleteBodySchema, opsFailBodySchema, opsWithdrawalQuerySchema, walletRecordSchema } from '@meridian/contracts/wallet';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../platform/http/envelope.ts';
import { DomainError } from '../../platform/http/errors.ts';
import type { AdminService } from './admin.service.ts';
import type { Operator, OperatorRole } from './admin.types.ts';

/**
 * The operator API (`/api/ops/...`), mounted under /api: bearer tokens of the operators table, one
 * role per route ('admin' may do everything). Machine callers: no CSRF header asked.
 * A missing or unknown token answers LOGIN_EXPIRED, a role that may not answers FORBIDDEN.
 */
export function adminRoutes(admin: AdminService) {
  return async function register(app: FastifyInstance): Promise<void> {
    const routes = app.withTypeProvider<ZodTypeProvider>();
    const operatorOf = async (request: FastifyRequest, roles: readonly OperatorRole[]): Promise<Operator> => {
      const header = request.headers.authorization;
      const token = typeof header === 'string' && header.startsWith('Bearer ') ? header.slice(7).trim() : '';
      const operator = token ? await admin.authenticateOperator(token) : undefined;
      if (!operator) throw new DomainError('LOGIN_EXPIRED');
      if (operator.role !== 'admin' && !roles.includes(operator.role)) throw new DomainError('FORBIDDEN');
      return operator;
    };
    const opsTags = ['operators'];
    const opsPage = envelopeSchema(pageSchema(walletRecordSchema.extend({ userId: z.string(), failureReason: z.string().nullable(), operatorEmail: z.string().nullable() })));
    const opsOne = envelopeSchema(walletRecordSchema.extend({ userId: z.string(), failureReason: z.string().nullable(), operatorEmail: z.string().nullable() }));
    routes.get('/ops/withdrawals', { config: { csrf: false }, schema: { tags: opsTags, summary: 'Withdrawals for operators', querystring: opsWithdrawalQuerySchema, response: { 200: opsPage } } }, async (request) => {
      await operatorOf(request, ['withdrawals', 'viewer']);
      return ok(request, await admin.listWithdrawals(request.query));
    });
    routes.post('/ops/withdrawals/:id/process', { config: { csrf: false }, schema: { tags: opsTags, summary: '0 waiting → 1 processing', params: idParamSchema, response: { 200: opsOne } } }, async (request) =>
      ok(request, await admin.processWithdrawal(await operatorOf(request, ['withdrawals']), request.params.id)),
    );
    routes.post(
      '/ops/withdrawals/:id/complete',
      { config: { csrf: false }, schema: { tags: opsTags, summary: '1 processing → 2 success', params: idParamSchema, body: opsCompleteBodySchema, response: { 200: opsOne } } },
      async (request) => ok(request, await admin.completeWithdrawal(await operatorOf(request, ['withdrawals']), request.params.id, request.body.txHash)),
    );
    routes.post(
      '/ops/withdrawals/:id/fail',
      { config: { csrf: false }, schema: { tags: opsTags, summary: '0/1 → 3 failure, funds returned', params: idParamSchema, body: opsFailBodySchema, response: { 200: opsOne } } },
      async (request) => ok(request, await admin.failWithdrawal(await operatorOf(request, ['withdrawals']), request.params.id, request.body.reason)),
    );
  };
}
