import { BUSINESS_CODES, businessMessage } from '@meridian/contracts/codes';
import { HEADER_API_KEY } from '@meridian/contracts/api-keys';
import { CSRF_HEADER_VALUE, HEADER_CSRF } from '@meridian/contracts/http';
import type { FastifyInstance } from 'fastify';
import { requestLocale } from './locale.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Set `false` on routes called by machines with their own authentication (signed webhooks);
     * `'multipart'` on file uploads: the header is still required, and the body may be
     * `multipart/form-data` as well as JSON (a cross-site form cannot add the header).
     */
    csrf?: boolean | 'multipart';
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Cross-site request guard (docs/architecture.md "Request path"): a state-changing API request must carry the JSON
 * content type (when it has a body) and the `X-Meridian-Client` header. A browser cannot add a
 * custom header to a cross-site form post, and a cross-origin fetch with one needs a CORS
 * pre-flight that this server never grants.
 */
export function registerCsrfGuard(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    if (SAFE_METHODS.has(request.method) || !request.url.startsWith('/api/')) return;
    if (request.routeOptions.config.csrf === false) return;
    // A bearer token (an operator's script) is sent by its holder, never by a browser on its own.
    if (request.routeOptions.config.auth === 'operator' && request.headers.authorization?.startsWith('Bearer ')) return;
    // A request signed with a developer API key: a browser cannot add the key header to
    // a cross-site request without a CORS pre-flight, which this server never grants.
    if (request.routeOptions.config.apiKeyScope && request.headers[HEADER_API_KEY.toLowerCase()] !== undefined) return;
    const hasHeader = request.headers[HEADER_CSRF.toLowerCase()] === CSRF_HEADER_VALUE;
    const contentType = request.headers['content-type'];
    const length = request.headers['content-length'];
    const hasBody = (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined;
    const mediaType = contentType?.split(';')[0]?.trim().toLowerCase();
    const isJson = contentType === undefined ? !hasBody : mediaType === 'application/json';
    const isAllowedMultipart = request.routeOptions.config.csrf === 'multipart' && mediaType === 'multipart/form-data';
    if (hasHeader && (isJson || isAllowedMultipart)) return;
    const locale = requestLocale(request);
    await reply.status(BUSINESS_CODES.FORBIDDEN.httpStatus).send({
      statusCode: BUSINESS_CODES.FORBIDDEN.code,
      content: null,
      message: businessMessage('FORBIDDEN', locale),
    });
  });
}
