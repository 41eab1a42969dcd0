import type { SwaggerTransform, SwaggerTransformObject } from '@fastify/swagger';
import type { EndpointAuth } from '@meridian/contracts/endpoint';
import type { FastifySchema } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

/**
 * What the generated OpenAPI document (`/api/docs/json`) says beyond each route's contract, so that
 * the API linters (Spectral's `spectral:oas`, the OWASP ruleset) find an operation id per
 * operation, the tags listed at the top level, the security each route declares and the error
 * answers (docs/decisions/0010-input-rules.md). Documentation only: the server's serializers never
 * see these error schemas.
 */

/** The envelope every error answers (`{ statusCode, content, message }`), as JSON Schema. */
const ERROR_ENVELOPE_SCHEMA = {
  type: 'object',
  required: ['statusCode', 'content', 'message'],
  properties: {
    statusCode: {
      type: 'integer',
      format: 'int32',
      minimum: 100,
      maximum: 999,
      description: 'The business code (docs: codes catalogue).',
    },
    content: { description: 'null, or for 120 `{ fields: [{ field, message }] }` naming each refused field.' },
    message: { type: 'string', maxLength: 1000, description: 'The refusal in the User-Lang language.' },
  },
} as const;

/** The error answers of every route, by HTTP status, with what they mean. */
const ERROR_RESPONSES: Record<string, string> = {
  400: 'Malformed request (code 122): bad JSON, unsupported media type, malformed URL.',
  422: 'Validation failed (code 120): content.fields names each refused field.',
  429: 'Too many requests (code 108); Retry-After says when to come back.',
  500: 'Server error (code 500), no detail.',
};

/**
 * The OpenAPI security of a route, from its `auth` (the schemes are declared in app.ts): the user's
 * session cookie, the operator's cookie or bearer token, either (`optional`: `{}` first) or none
 * (`none`, or a route that declares nothing); a route that accepts a developer API key also lists
 * the signed-key headers.
 */
export function securityOf(route: {
  auth?: EndpointAuth | undefined;
  apiKeyScope?: string | undefined;
}): Record<string, string[]>[] {
  if (route.apiKeyScope) return [{ cookieAuth: [] }, { apiKey: [], apiTimestamp: [], apiSignature: [] }];
  if (route.auth === 'user') return [{ cookieAuth: [] }];
  if (route.auth === 'operator') return [{ operatorCookie: [] }, { operatorBearer: [] }];
  if (route.auth === 'optional') return [{}, { cookieAuth: [] }];
  return [];
}

/** Per route: the contract's schemas (fastify-type-provider-zod), then the error answers. */
export const openApiTransform: SwaggerTransform = (input) => {
  const result = jsonSchemaTransform(input as Parameters<typeof jsonSchemaTransform>[0]) as {
    schema: FastifySchema & { response?: Record<string, unknown> };
    url: string;
  };
  // A route without a schema (a test's probe) or hidden from the document is left as it is.
  if ((result.schema as unknown) === undefined || (result.schema as { hide?: boolean }).hide) return result;
  // A route registered without a descriptor (a file download, a stream) declares its `auth` in config.
  const config = (input.route.config ?? {}) as { auth?: EndpointAuth; apiKeyScope?: string };
  const security = result.schema.security ?? securityOf(config);
  const isSignedIn = security.length > 0;
  const errors = Object.fromEntries(
    Object.entries({
      ...ERROR_RESPONSES,
      ...(isSignedIn && { 401: 'Not signed in or session expired (code 103).' }),
    }).map(([status, description]) => [status, { description, ...ERROR_ENVELOPE_SCHEMA }]),
  );
  return { ...result, schema: { ...result.schema, security, response: { ...errors, ...result.schema.response } } };
};

/** The bounds of a 32-bit signed integer (OpenAPI's `int32` format). */
const INT32_MIN = -2_147_483_648;
const INT32_MAX = 2_147_483_647;

/**
 * Gives every integer schema of `node` (at any depth) the OpenAPI `format` its zod bounds allow:
 * `int32` when `minimum` and `maximum` both fit in 32 bits, otherwise `int64`. zod 4 writes
 * `z.number().int()` as an integer bounded by ±(2^53 − 1) (`Number.MAX_SAFE_INTEGER`) and no
 * format, so an unbounded count or id is `int64` and a page size (1–100) is `int32`. A format the
 * schema already has is kept.
 */
export function addIntegerFormats(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) addIntegerFormats(item);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const schema = node as Record<string, unknown>;
  if (schema.type === 'integer' && schema.format === undefined) {
    const minimum = typeof schema.minimum === 'number' ? schema.minimum : -Infinity;
    const maximum = typeof schema.maximum === 'number' ? schema.maximum : Infinity;
    schema.format = minimum >= INT32_MIN && maximum <= INT32_MAX ? 'int32' : 'int64';
  }
  for (const value of Object.values(schema)) addIntegerFormats(value);
}

type Operations = Record<string, Record<string, { operationId?: string; tags?: string[] }>>;

/** `post /api/admin/users/{userId}/freeze` → `postApiAdminUsersUserIdFreeze`. */
function operationIdOf(method: string, path: string): string {
  const words = path.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return method + words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join('');
}

/**
 * The whole document: every operation gets an `operationId` (the endpoint's name from its module's
 * table, or method and path when it has none or shares it with another operation), every tag
 * an operation uses is listed at the top level, and every integer has its `format`.
 */
export const openApiTransformObject: SwaggerTransformObject = (documentObject) => {
  const document = (
    'openapiObject' in documentObject ? documentObject.openapiObject : documentObject.swaggerObject
  ) as {
    paths?: Operations;
    tags?: { name: string }[];
  };
  const paths = document.paths ?? {};
  const operations = Object.entries(paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
  );
  const counts = new Map<string, number>();
  for (const { operation } of operations)
    if (operation.operationId) counts.set(operation.operationId, (counts.get(operation.operationId) ?? 0) + 1);
  const tags = new Set<string>();
  for (const { path, method, operation } of operations) {
    if (!operation.operationId || (counts.get(operation.operationId) ?? 0) > 1)
      operation.operationId = operationIdOf(method, path);
    for (const tag of operation.tags ?? []) tags.add(tag);
  }
  addIntegerFormats(paths);
  return { ...document, tags: [...tags].sort().map((name) => ({ name })) } as ReturnType<SwaggerTransformObject>;
};
