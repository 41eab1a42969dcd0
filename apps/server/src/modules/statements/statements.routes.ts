import type { ParamsOf, QueryOf } from '@meridian/contracts/endpoint';
import { statementEndpoints } from '@meridian/contracts/statements';
import type { FastifyInstance } from 'fastify';
import { currentUser } from '../../platform/http/auth.ts';
import { registerEndpoints } from '../../platform/http/endpoint.ts';
import { requestLocale } from '../../platform/http/locale.ts';
import type { StatementsService } from './statements.service.ts';

/**
 * The statement routes under /api: start a generation, poll it, download its file. The
 * download answers the file itself, not an envelope, so it is registered from its descriptor by
 * hand with the same permission and schemas; a plain link can fetch it (the session cookie), and
 * `lang` chooses the PDF's language because a link sends no `User-Lang`.
 */
export function statementsRoutes(options: { statements: StatementsService }) {
  const { statements } = options;
  return async function register(app: FastifyInstance): Promise<void> {
    const { downloadFile, ...jsonEndpoints } = statementEndpoints;
    registerEndpoints(app, jsonEndpoints, {
      startGeneration: async (request) => statements.start(currentUser(request).userId, request.body),
      getLatestGeneration: async (request) => statements.latest(currentUser(request).userId),
      getGeneration: async (request) => statements.generation(currentUser(request).userId, request.params.id),
    });
    app.route<{ Params: ParamsOf<typeof downloadFile>; Querystring: QueryOf<typeof downloadFile> }>({
      method: downloadFile.method,
      url: downloadFile.path,
      config: { auth: downloadFile.auth },
      schema: {
        tags: [downloadFile.tag],
        summary: downloadFile.summary,
        description:
          'Business codes: 101 LOGIN_EXPIRED, 104 NOT_FOUND, 120 (a field), 251 STATEMENT_NOT_READY, 252 STATEMENT_GENERATION_FAILED.',
        params: downloadFile.params,
        querystring: downloadFile.query,
      },
      handler: async (request, reply) => {
        const file = await statements.file(
          currentUser(request).userId,
          request.params.id,
          request.query.format,
          request.query.lang ?? requestLocale(request),
        );
        return reply
          .header('content-type', file.mimeType)
          .header('cache-control', 'private, no-store')
          .header('content-disposition', `attachment; filename="${file.fileName}"`)
          .header('x-content-type-options', 'nosniff')
          .send(file.bytes);
      },
    });
  };
}
