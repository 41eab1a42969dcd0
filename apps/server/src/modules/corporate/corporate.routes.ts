import {
  corporateEndpoints,
  opsCorporateEndpoints,
  opsProApplicationQuerySchema,
  PRO_APPLICATIONS_CSV_PATH,
} from '@meridian/contracts/corporate';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { noteAudit } from '../../platform/http/audit.ts';
import { currentOperator, currentUser } from '../../platform/http/auth.ts';
import { registerEndpoints } from '../../platform/http/endpoint.ts';
import type { CorporateService } from './corporate.service.ts';

/**
 * HTTP routes of PRO accounts, mounted under /api: the customer's `corporate/pro` and
 * `corporate/pro/apply`, and the back office's `admin/pro-applications` (list, decide, CSV). Each
 * descriptor declares its roles; the platform checks them and writes every decision to the audit
 * log, to which the handler adds the application before and after and the reply as the reason.
 */
export function corporateRoutes(corporate: CorporateService) {
  return async function register(app: FastifyInstance): Promise<void> {
    registerEndpoints(app, corporateEndpoints, {
      getProAccount: async (request) => corporate.proAccount(currentUser(request).userId),
      applyPro: async (request) => corporate.apply(currentUser(request).userId, request.body),
    });
    registerEndpoints(app, opsCorporateEndpoints, {
      listProApplications: async (request) => corporate.listForOperators(request.query),
      decideProApplication: async (request) => {
        const { before, after } = await corporate.decide(
          request.params.id,
          request.body,
          currentOperator(request).email,
        );
        noteAudit(request, {
          targetType: 'pro-application',
          targetId: after.id,
          before,
          after,
          reason: request.body.reply,
        });
        return after;
      },
    });

    // The CSV export answers a file, not an envelope: registered by hand with the list's roles and query.
    app.route<{ Querystring: z.output<typeof opsProApplicationQuerySchema> }>({
      method: 'GET',
      url: `/${PRO_APPLICATIONS_CSV_PATH}`,
      config: {
        auth: 'operator',
        roles: opsCorporateEndpoints.listProApplications.roles,
        operation: 'exportProApplications',
      },
      schema: {
        tags: ['back-office'],
        summary: 'PRO account applications as CSV (same filters as admin/pro-applications)',
        description: 'Business codes: 101 LOGIN_EXPIRED, 102 FORBIDDEN.',
        querystring: opsProApplicationQuerySchema,
      },
      handler: async (request, reply) => {
        const csv = await corporate.exportCsv(request.query);
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('cache-control', 'private, no-store')
          .header('content-disposition', 'attachment; filename="meridian-pro-applications.csv"')
          .send(csv);
      },
    });
  };
}
