import { BUSINESS_CODES } from '@meridian/contracts/codes';
import type { BodyOf, ContentOf, Endpoint, ParamsOf, QueryOf } from '@meridian/contracts/endpoint';
import { envelopeSchema } from '@meridian/contracts/envelope';
import type {
  FastifyContextConfig,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  preValidationAsyncHookHandler,
} from 'fastify';
import { ok } from './envelope.ts';
import { runIdempotent } from './idempotency.ts';
import { securityOf } from './openapi.ts';

/** The request a handler of `E` sees: body, query and path parameters already parsed by its schemas. */
export type EndpointRequest<E extends Endpoint> = FastifyRequest<{
  Body: BodyOf<E>;
  Querystring: QueryOf<E>;
  Params: ParamsOf<E>;
}>;

/** A handler returns the endpoint's content; `registerEndpoint` wraps it in the success envelope. */
export type EndpointHandler<E extends Endpoint> = (
  request: EndpointRequest<E>,
  reply: FastifyReply,
) => Promise<ContentOf<E>>;

/** Server-only policy of one route, which the descriptor (shared with the web) does not carry. */
export interface EndpointPolicy {
  /** Per-route rate limit (`@fastify/rate-limit` options; see platform/ratelimit). */
  rateLimit?: FastifyContextConfig['rateLimit'];
  /** `false` for machine callers without the web's CSRF header (signed webhooks); `'multipart'` for uploads (header still required). */
  csrf?: FastifyContextConfig['csrf'];
  /**
   * A check that runs before the body is validated and before the handler (Fastify's
   * `preValidation` hook), e.g. a refusal that must come before the security check's factors are
   * read (closing a non-empty account).
   */
  preValidation?: preValidationAsyncHookHandler;
}

/** The codes every call can answer, left out of each descriptor's list. */
const COMMON_CODES = ['LOGIN_EXPIRED', 'VALIDATION_FAILED', 'RATE_LIMITED', 'SERVICE_UNAVAILABLE'] as const;

/** The OpenAPI description of an endpoint: its summary, then the business codes it can answer. */
function describe(endpoint: Endpoint): string {
  const names = [
    ...(endpoint.codes ?? []),
    ...(endpoint.kyc && !endpoint.codes?.includes('KYC_REQUIRED') ? (['KYC_REQUIRED'] as const) : []),
    ...(endpoint.auth === 'user' || endpoint.auth === 'operator' ? COMMON_CODES : COMMON_CODES.slice(1)),
  ];
  const codes = names.map((name) => `${BUSINESS_CODES[name].code} ${name}`).join(', ');
  const demands = [
    endpoint.auth === 'operator' && `back-office role: ${['admin', ...(endpoint.roles ?? [])].join(' or ')}`,
    endpoint.kyc && `identity verification: ${endpoint.kyc}`,
    endpoint.sensitiveAction && `security check: ${endpoint.sensitiveAction} (factors in the body)`,
    endpoint.apiVersion && `api-version: ${endpoint.apiVersion}`,
    endpoint.isIdempotent && 'Idempotency-Key honoured',
    endpoint.apiKeyScope && `accepts a signed API key with scope ${endpoint.apiKeyScope} (docs/api.md)`,
  ].filter(Boolean);
  return [demands.length > 0 ? `Requires ${demands.join('; ')}.` : '', `Business codes: ${codes}.`]
    .filter(Boolean)
    .join(' ');
}

/**
 * Register the route of one endpoint descriptor on `app` (mounted under the descriptor's base path
 * by the caller): its schemas validate the request and describe the envelope of its answer, its
 * `auth`, `kyc` and `sensitiveAction` become the route's declarative permissions (platform/http/auth),
 * and its summary and business codes go into the OpenAPI document. The handler returns the content
 * (sent as is when the descriptor is `isBareContent`, in the success envelope otherwise); with
 * `isIdempotent` it runs once per `Idempotency-Key` and a repeat answers the stored content
 * (`runIdempotent`, platform/http/idempotency);
 * errors are thrown as `DomainError`/`FieldError` (platform/http/errors).
 */
export function registerEndpoint<E extends Endpoint>(
  app: FastifyInstance,
  endpoint: E,
  handler: EndpointHandler<E>,
  policy: EndpointPolicy = {},
  operation?: string,
): void {
  app.route({
    method: endpoint.method,
    url: endpoint.path,
    config: {
      auth: endpoint.auth,
      ...(endpoint.roles && { roles: endpoint.roles }),
      ...(operation && { operation }),
      ...(endpoint.kyc && { kyc: endpoint.kyc }),
      ...(endpoint.apiKeyScope && { apiKeyScope: endpoint.apiKeyScope }),
      ...(endpoint.sensitiveAction && { sensitiveAction: endpoint.sensitiveAction }),
      ...(policy.rateLimit !== undefined && { rateLimit: policy.rateLimit }),
      ...(policy.csrf !== undefined && { csrf: policy.csrf }),
    },
    schema: {
      tags: [endpoint.tag],
      summary: endpoint.summary,
      description: describe(endpoint),
      ...(endpoint.isHidden && { hide: true }),
      ...(operation && { operationId: operation }),
      security: securityOf(endpoint),
      // OpenAPI: the routes a developer API key may call, with the scope it needs.
      ...(endpoint.apiKeyScope && { 'x-api-key-scope': endpoint.apiKeyScope }),
      ...(endpoint.body && { body: endpoint.body }),
      ...(endpoint.query && { querystring: endpoint.query }),
      ...(endpoint.params && { params: endpoint.params }),
      response: { 200: endpoint.isBareContent ? endpoint.content : envelopeSchema(endpoint.content) },
    },
    ...(policy.preValidation && { preValidation: policy.preValidation }),
    handler: async (request, reply) => {
      const run = () => handler(request as EndpointRequest<E>, reply);
      // One key reader and one store for every `isIdempotent` call (docs/api.md "Idempotency").
      const content = endpoint.isIdempotent
        ? await runIdempotent(request, run, endpoint.idempotencyKeyField)
        : await run();
      return endpoint.isBareContent ? content : ok(request, content);
    },
  });
}

/** Register every endpoint of `handlers`' keys: a module's routes as one readable table. */
export function registerEndpoints<const M extends Record<string, Endpoint>>(
  app: FastifyInstance,
  endpoints: M,
  handlers: { [K in keyof M]: EndpointHandler<M[K]> | [EndpointHandler<M[K]>, EndpointPolicy] },
): void {
  for (const name of Object.keys(endpoints) as (keyof M & string)[]) {
    const entry = handlers[name];
    const [handler, policy] = Array.isArray(entry) ? entry : [entry, {}];
    registerEndpoint(app, endpoints[name] as M[typeof name], handler as EndpointHandler<M[typeof name]>, policy, name);
  }
}
