import { adminEndpoints } from '@meridian/contracts/admin';
import { auditQuerySchema, backOfficeAccessEndpoints } from '@meridian/contracts/back-office';
import { opsWalletEndpoints } from '@meridian/contracts/wallet';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { noteAudit } from '../../platform/http/audit.ts';
import { currentOperator } from '../../platform/http/auth.ts';
import { registerEndpoints } from '../../platform/http/endpoint.ts';
import type { WalletService } from '../wallet/wallet.service.ts';
import { OPERATOR_COOKIE, OPERATOR_COOKIE_PATHS, type RequestFacts } from './admin.access.ts';
import type { AdminService } from './admin.service.ts';

/** Sign-in attempts per IP per minute (the account itself locks after 5 failures). */
const SIGN_IN_RATE_LIMIT = { max: 10, timeWindow: '1 minute' };

function factsOf(request: FastifyRequest): RequestFacts {
  return { ip: request.ip ?? null, userAgent: request.headers['user-agent'] ?? null };
}

/**
 * The back office's own routes under /api: operator sign-in, TOTP enrolment and
 * sign-out (the session cookie `meridian_admin`: httpOnly, `SameSite=Strict`, Secure in production,
 * on `/api/admin` and `/admin`), operators, the audit log and its CSV, withdrawals, and the wallet's
 * operator calls (limits, screening alerts). Each descriptor declares its roles; the platform
 * checks them before the handler and writes every write to the audit log.
 */
export function adminRoutes(admin: AdminService, wallet: WalletService, options: { isSecureCookie: boolean }) {
  const { access } = admin;
  const setCookie = (reply: FastifyReply, token: string, expires: Date) => {
    for (const path of OPERATOR_COOKIE_PATHS)
      reply.setCookie(OPERATOR_COOKIE, token, {
        httpOnly: true,
        sameSite: 'strict',
        secure: options.isSecureCookie,
        path,
        expires,
      });
  };
  const clearCookie = (reply: FastifyReply) => {
    for (const path of OPERATOR_COOKIE_PATHS) reply.clearCookie(OPERATOR_COOKIE, { path });
  };

  return async function register(app: FastifyInstance): Promise<void> {
    registerEndpoints(app, backOfficeAccessEndpoints, {
      signIn: [
        async (request, reply) => {
          const { session, answer } = await access.signIn(request.body, factsOf(request));
          setCookie(reply, session.token, session.expiresAt);
          return answer;
        },
        { rateLimit: SIGN_IN_RATE_LIMIT },
      ],
      enrolTotp: [
        async (request) => access.enrolTotp(request.cookies[OPERATOR_COOKIE], request.body.totpCode, factsOf(request)),
        { rateLimit: SIGN_IN_RATE_LIMIT },
      ],
      session: async (request) => access.sessionOf(currentOperator(request).id),
      signOut: async (request, reply) => {
        await access.signOut(request.cookies[OPERATOR_COOKIE], factsOf(request));
        clearCookie(reply);
        return null;
      },
      listOperators: async () => access.listOperators(),
      createOperator: async (request) => {
        const created = await access.addOperator(request.body.email, request.body.role);
        noteAudit(request, { targetType: 'operator', targetId: created.operator.id, after: created.operator });
        return created;
      },
      updateOperator: async (request) => {
        const { before, after } = await access.updateOperator(
          currentOperator(request).id,
          request.params.id,
          request.body,
        );
        noteAudit(request, { targetType: 'operator', targetId: after.id, before, after });
        return after;
      },
      listAudit: async (request) => admin.searchAudit(request.query),
    });

    // The CSV export answers a file, not an envelope: registered by hand with the same permission
    // (the listAudit descriptor's roles) and query schema.
    app.route<{ Querystring: z.output<typeof auditQuerySchema> }>({
      method: 'GET',
      url: '/admin/audit.csv',
      config: { auth: 'operator', roles: backOfficeAccessEndpoints.listAudit.roles, operation: 'exportAudit' },
      schema: {
        tags: ['back-office'],
        summary: 'The audit log as CSV (same filters as admin/audit)',
        description: 'Business codes: 101 LOGIN_EXPIRED, 102 FORBIDDEN.',
        querystring: auditQuerySchema,
      },
      handler: async (request, reply) => {
        const csv = await admin.exportAuditCsv(request.query);
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('cache-control', 'private, no-store')
          .header('content-disposition', 'attachment; filename="meridian-audit.csv"')
          .send(csv);
      },
    });

    registerEndpoints(app, adminEndpoints, {
      listWithdrawals: async (request) => admin.listWithdrawals(request.query),
      approveWithdrawal: async (request) => {
        const after = await wallet.approveWithdrawal(currentOperator(request).email, request.params.id);
        noteAudit(request, {
          targetType: 'withdrawal',
          targetId: request.params.id,
          before: { ...after, approvedBy: null },
          after,
        });
        return after;
      },
      processWithdrawal: async (request) => admin.processWithdrawal(currentOperator(request), request.params.id),
      completeWithdrawal: async (request) =>
        admin.completeWithdrawal(currentOperator(request), request.params.id, request.body.txHash),
      failWithdrawal: async (request) =>
        admin.failWithdrawal(currentOperator(request), request.params.id, request.body.reason),
    });
    registerEndpoints(app, opsWalletEndpoints, {
      listWithdrawalLimits: async () => wallet.listWithdrawalLimits(),
      setWithdrawalLimit: async (request) =>
        wallet.setWithdrawalLimit(currentOperator(request).email, request.params.level, {
          usdPer24hCents: request.body.usdPer24h,
          usdPerMonthCents: request.body.usdPerMonth,
        }),
      listScreeningAlerts: async (request) => wallet.listScreeningAlerts(request.query),
      releaseScreeningAlert: async (request) =>
        wallet.releaseScreeningAlert(currentOperator(request).email, request.params.id, request.body.note ?? null),
      confirmScreeningAlert: async (request) =>
        wallet.confirmScreeningAlert(currentOperator(request).email, request.params.id, request.body.note),
    });
  };
}
