import type { z } from 'zod';
import type { BusinessCodeName } from './codes.ts';
import type { OperatorRole } from './operators.ts';
import type { CaptchaEvent } from './security.ts';

/**
 * One endpoint descriptor per API call (docs/architecture.md "Request path"). A descriptor states
 * everything both ends must agree on — method, path, who may call it, what it demands, the shapes
 * it takes and answers, and the business codes it can answer — so that:
 *
 * - the server registers the route from it (`registerEndpoint` in `apps/server/src/platform/http/endpoint.ts`):
 *   the schemas validate the request and describe the answer, `auth`/`kyc`/`sensitiveAction` become
 *   the route's declarative permissions, and the OpenAPI document is generated from the same data;
 * - the web calls it through `callEndpoint` (`apps/web/src/lib/api-client.ts`), typed from the
 *   descriptor, and the security-check modal takes its event from `sensitiveAction`.
 *
 * Paths use Fastify's `:param` syntax and are relative to the descriptor's `basePath` (default `/api`).
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call: a signed-in user, anyone (the user resolved when present), anyone, or a back-office
 * operator ('operator': the back-office session cookie with TOTP passed, or an operator's bearer
 * token for scripts; the role must be one of `roles`).
 */
export type EndpointAuth = 'user' | 'optional' | 'none' | 'operator';

/**
 * Identity-verification levels a call can demand (basic = 1, investor = 2, qualified = 3; docs/kyc.md "Levels and what
 * they open").
 */
export type KycRequirement = 'basic' | 'investor' | 'qualified';

/**
 * Permissions of a developer API key (docs/api.md): `read` (balances,
 * records, orders), `trade` (swap, fund subscribe/redeem), `withdraw` (only to address-book entries).
 */
export const API_KEY_SCOPES = ['read', 'trade', 'withdraw'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/** The data of a descriptor; see `defineEndpoint`. */
export interface Endpoint {
  method: HttpMethod;
  /** Fastify path under `basePath`, e.g. `/wallet/withdraw/:id/cancel`. */
  path: string;
  /** Path prefix of the service; `/api` when absent (the message centre lives at `/api/notice`). */
  basePath?: string;
  /** One line for the OpenAPI document. */
  summary: string;
  /** OpenAPI tag: the module that serves it. */
  tag: string;
  /** Default 'none'. 'user': a session is required (101 otherwise). */
  auth: EndpointAuth;
  /** With `auth: 'operator'`: the roles that may call ('admin' always may; absent = admin only). See `mayCall`. */
  roles?: readonly OperatorRole[];
  /** The identity verification the call needs (143 KYC_REQUIRED naming the missing step otherwise). */
  kyc?: KycRequirement;
  /** The captcha event of a sensitive action: the body carries the factors its trade configuration requires. */
  sensitiveAction?: CaptchaEvent;
  /**
   * With `auth: 'user'`: the API-key scope that lets a signed request with a developer key call the
   * route instead of a session (docs/api.md). Absent: keys are refused (276). The server's
   * route registration enforces it; the OpenAPI document lists it.
   */
  apiKeyScope?: ApiKeyScope;
  /** Sent with `api-version: 2.0`. */
  apiVersion?: '2.0';
  /** Honours the `Idempotency-Key` header (a retry answers the stored result; docs/api.md "Idempotency"). */
  isIdempotent?: boolean;
  /**
   * With `isIdempotent`: the body field that is the call's idempotency key when no header is sent
   * (the flash exchange's `requestId`).
   */
  idempotencyKeyField?: string;
  body?: z.ZodType;
  query?: z.ZodType;
  params?: z.ZodType;
  /** The `content` of a successful envelope (or the whole answer when `isBareContent`). */
  content: z.ZodType;
  /**
   * The answer is `content` itself, not wrapped in the envelope: for a third-party client that
   * fetches the URL directly (the ALTCHA widget's challenge).
   */
  isBareContent?: boolean;
  /** Business codes other than 200, 101 and 120 that the call can answer (documented in OpenAPI). */
  codes?: readonly BusinessCodeName[];
  /** Left out of the OpenAPI document (development-only helpers). */
  isHidden?: boolean;
}

/**
 * Declare an endpoint; returns its argument unchanged, typed exactly, so that `BodyOf`, `QueryOf`,
 * `ParamsOf` and `ContentOf` can read its shapes.
 */
export function defineEndpoint<const E extends Endpoint>(endpoint: E): E {
  return endpoint;
}

type OutputOf<S> = S extends z.ZodType ? z.output<S> : undefined;
type InputOf<S> = S extends z.ZodType ? z.input<S> : undefined;

/** The parsed body, query, path parameters and content of an endpoint (what the server handler sees). */
export type BodyOf<E extends Endpoint> = OutputOf<E['body']>;
export type QueryOf<E extends Endpoint> = OutputOf<E['query']>;
export type ParamsOf<E extends Endpoint> = OutputOf<E['params']>;
export type ContentOf<E extends Endpoint> = z.output<E['content']>;

/** What a caller sends (wire shapes, before parsing): only the parts the endpoint declares. */
export type EndpointInput<E extends Endpoint> = (E['body'] extends z.ZodType
  ? { body: InputOf<E['body']> }
  : { body?: undefined }) &
  (E['query'] extends z.ZodType ? { query: InputOf<E['query']> } : { query?: undefined }) &
  (E['params'] extends z.ZodType ? { params: InputOf<E['params']> } : { params?: undefined });

/**
 * The path of a call with its `:param`s filled in (URI-encoded).
 * @throws Error when a parameter named in the path is missing.
 */
export function endpointPath(endpoint: Pick<Endpoint, 'path'>, params?: Record<string, string | number>): string {
  return endpoint.path.replace(/:(\w+)/g, (_match, name: string) => {
    const value = params?.[name];
    if (value === undefined) throw new Error(`Missing path parameter ${name} of ${endpoint.path}`);
    return encodeURIComponent(String(value));
  });
}
