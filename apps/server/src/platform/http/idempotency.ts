import { HEADER_IDEMPOTENCY_KEY } from '@meridian/contracts/http';
import type { FastifyRequest } from 'fastify';
import type { IdempotencyStore, SettleAnswer } from '../db/idempotency.ts';
import { requestHashOf } from '../db/idempotency.ts';
import { FieldError } from './errors.ts';

/** What an `Idempotency-Key` may be: 1 to 128 letters, digits, `_`, `.`, `:` or `-` (a UUID fits). */
export const IDEMPOTENCY_KEY_PATTERN = /^[\w.:-]{1,128}$/;

/**
 * The body fields that prove the caller at this attempt (one-time codes, the security password, a
 * passkey assertion): a retry of the same request carries new ones, so they are not hashed.
 */
const FACTOR_FIELDS = new Set(['mfaCode', 'emailCaptcha', 'securityPassword', 'passkey']);

declare module 'fastify' {
  interface FastifyInstance {
    /** The store of idempotent answers (`platform/db/idempotency.ts`), used by every `isIdempotent` route. */
    idempotency: IdempotencyStore;
  }
}

/**
 * The request's `Idempotency-Key` header, or undefined when none was sent. The one reader of the
 * header: `registerEndpoint` calls it for every descriptor with `isIdempotent`, and handlers that
 * store the key on their rows read it with the same function.
 * @throws FieldError on `Idempotency-Key` (validation.unknownField) when it is malformed.
 */
export function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const value = request.headers[HEADER_IDEMPOTENCY_KEY.toLowerCase()];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !IDEMPOTENCY_KEY_PATTERN.test(value))
    throw new FieldError(HEADER_IDEMPOTENCY_KEY, 'validation.unknownField');
  return value;
}

/**
 * The hash an idempotent request is stored with: its method, route, path parameters, query and
 * parsed body (amounts already in minor units) without the factor fields. The same key with
 * another hash is refused (CONFLICT 121).
 */
export function idempotentRequestHash(request: FastifyRequest): string {
  const body =
    request.body !== null && typeof request.body === 'object'
      ? Object.fromEntries(Object.entries(request.body).filter(([field]) => !FACTOR_FIELDS.has(field)))
      : (request.body ?? null);
  return requestHashOf({
    method: request.method,
    route: request.routeOptions.url,
    params: request.params ?? null,
    query: request.query ?? null,
    body,
  });
}

/** The answer-settling function of each request running under `runIdempotent`. */
const settlers = new WeakMap<FastifyRequest, SettleAnswer>();

/**
 * How a handler stores its answer in its own transaction (`SettleAnswer`): present while the
 * request runs under a claimed idempotency key, undefined otherwise (no key, or a replay).
 */
export function idempotentAnswerOf(request: FastifyRequest): SettleAnswer | undefined {
  return settlers.get(request);
}

/** The key a body field carries (the descriptor's `idempotencyKeyField`, already validated by the body's schema). */
function bodyKeyOf(request: FastifyRequest, keyField: string | undefined): string | undefined {
  if (keyField === undefined || request.body === null || typeof request.body !== 'object') return undefined;
  const value: unknown = (request.body as Record<string, unknown>)[keyField];
  return typeof value === 'string' ? `${keyField}:${value}` : undefined;
}

/**
 * Run the handler of an `isIdempotent` route once per key (docs/api.md "Idempotency"): the
 * `Idempotency-Key` header, else the body field the descriptor names (`keyField`). Without either, the
 * header, or without a signed-in owner, it just runs. A replayed answer is declared to the
 * sensitive-action check (`answeredByReplay`): nothing was done, so no factor is needed.
 * @throws FieldError on a malformed key; DomainError CONFLICT, IDEMPOTENCY_IN_PROGRESS (`runOnce`).
 */
export async function runIdempotent<T>(request: FastifyRequest, work: () => Promise<T>, keyField?: string): Promise<T> {
  const idempotencyKey = idempotencyKeyOf(request) ?? bodyKeyOf(request, keyField);
  const ownerId = request.auth?.userId;
  if (idempotencyKey === undefined || ownerId === undefined) return work();
  const { answer, isReplay } = await request.server.idempotency.runOnce(
    { ownerId, idempotencyKey, requestHash: idempotentRequestHash(request) },
    (settle) => {
      settlers.set(request, settle);
      return work();
    },
  );
  if (isReplay) request.sensitiveAction?.answeredByReplay();
  return answer;
}
