import { BUSINESS_CODES, type BusinessCodeName, businessMessage } from '@meridian/contracts/codes';
import type { Envelope, ValidationErrorContent } from '@meridian/contracts/envelope';
import type { Locale } from '@meridian/contracts/locale';
import { validationMessage } from '@meridian/contracts/validation';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable } from '../db/unavailable.ts';
import { DomainError, FieldError } from './errors.ts';
import { requestLocale } from './locale.ts';
import { describeIssues, RequestValidationError } from './validation.ts';

/** Retry-After of a 429 whose refusal does not say how long to wait (a daily cap, a 429 from Fastify). */
export const DEFAULT_RETRY_AFTER_SEC = 60;
/** Retry-After of a 503 while the database is out of reach (a restart of the pooler, a failover). */
const DATABASE_RETRY_AFTER_SEC = 1;

/**
 * Seconds to wait before a retry, from the refusal itself: `retryAfterSeconds` in its content (the
 * code resend wait), else `seconds` in its params; undefined when it says nothing.
 */
function retryAfterSecOf(content: unknown, params: Record<string, string | number> | undefined): number | undefined {
  const fromContent =
    content !== null && typeof content === 'object'
      ? (content as { retryAfterSeconds?: unknown }).retryAfterSeconds
      : undefined;
  const value = typeof fromContent === 'number' ? fromContent : Number(params?.seconds);
  return Number.isFinite(value) && value > 0 ? Math.ceil(value) : undefined;
}

function send(
  reply: FastifyReply,
  name: BusinessCodeName,
  locale: Locale,
  content: unknown,
  message?: string,
  params?: Record<string, string | number>,
) {
  const entry = BUSINESS_CODES[name];
  // Every 429 says when to come back (RFC 9110 §10.2.3): the limiter's own value
  // when it set one, else the refusal's, else a minute. So does the 409 of an idempotent request
  // still in progress (docs/api.md).
  if ((entry.httpStatus === 429 || name === 'IDEMPOTENCY_IN_PROGRESS') && !reply.hasHeader('retry-after')) {
    reply.header('retry-after', String(retryAfterSecOf(content, params) ?? DEFAULT_RETRY_AFTER_SEC));
  }
  const body: Envelope<unknown> = {
    statusCode: entry.code,
    content,
    message: message ?? businessMessage(name, locale),
  };
  return reply.status(entry.httpStatus).send(body);
}

/** Map a Fastify client error (4xx raised by Fastify itself) to the closest business code. */
function codeForHttpStatus(status: number): BusinessCodeName {
  if (status === 401) return 'LOGIN_EXPIRED';
  if (status === 403) return 'FORBIDDEN';
  if (status === 404) return 'NOT_FOUND';
  if (status === 409) return 'CONFLICT';
  if (status === 429) return 'RATE_LIMITED';
  return 'BAD_REQUEST';
}

/**
 * Whether `payload` is an error answer Fastify wrote itself (`{ statusCode, code?, error, message }`,
 * from its default or fallback error handler) rather than the app's envelope (`{ statusCode,
 * content, message }`).
 */
function isFastifyErrorPayload(payload: unknown): payload is string {
  if (typeof payload !== 'string' || !payload.startsWith('{')) return false;
  try {
    const parsed = JSON.parse(payload) as Record<string, unknown>;
    return typeof parsed.error === 'string' && !('content' in parsed);
  } catch {
    return false;
  }
}

/**
 * The last line of the envelope (docs/decisions/0010-input-rules.md): an error raised after the
 * app's handler has answered (in an `onSend` hook, or by the handler itself) goes to Fastify's
 * default handler, whose answer carries the raw error message (a database error's SQL and
 * parameters). This hook, registered before every other `onSend` hook, replaces such an answer
 * with the envelope of its status class: the catalogue message, no content, no detail.
 */
function registerEnvelopeGuard(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (reply.statusCode < 400 || !isFastifyErrorPayload(payload)) return payload;
    const status = reply.statusCode;
    const name = status >= 500 ? 'INTERNAL' : codeForHttpStatus(status);
    const entry = BUSINESS_CODES[name];
    request.log.warn({ status, url: request.url }, 'error answer of Fastify replaced by the envelope');
    reply.status(entry.httpStatus).header('content-type', 'application/json; charset=utf-8');
    const body: Envelope<null> = {
      statusCode: entry.code,
      content: null,
      message: businessMessage(name, requestLocale(request)),
    };
    return JSON.stringify(body);
  });
}

/**
 * The one error handler: domain errors map to their catalogue code, validation
 * failures name each field in the caller's language, 5xx details are logged and hidden. Fastify's
 * own errors (bad JSON, unsupported media type, body too large …) are answered in the envelope by
 * status class, and `registerEnvelopeGuard` catches what reaches Fastify's default handler.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  registerEnvelopeGuard(app);
  app.setErrorHandler((error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) => {
    const locale = requestLocale(request);

    if (error instanceof RequestValidationError) {
      const part =
        'validationContext' in error && typeof error.validationContext === 'string' ? error.validationContext : 'body';
      const fields = describeIssues(error.issues, part, locale);
      const first = fields[0] ?? { field: part, message: validationMessage('validation.required', locale) };
      const content: ValidationErrorContent = { fields };
      return send(
        reply,
        'VALIDATION_FAILED',
        locale,
        content,
        businessMessage('VALIDATION_FAILED', locale, { field: first.field, reason: first.message }),
      );
    }
    if (error instanceof FieldError) {
      const message = validationMessage(error.messageKey, locale, error.params);
      const content: ValidationErrorContent = { fields: [{ field: error.field, message }] };
      return send(
        reply,
        'VALIDATION_FAILED',
        locale,
        content,
        businessMessage('VALIDATION_FAILED', locale, { field: error.field, reason: message }),
      );
    }
    if (error instanceof DomainError) {
      return send(
        reply,
        error.code,
        locale,
        error.content,
        businessMessage(error.code, locale, error.params),
        error.params,
      );
    }

    const status = 'statusCode' in error && typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status >= 400 && status < 500) {
      request.log.info({ err: error }, 'client error');
      return send(reply, codeForHttpStatus(status), locale, null);
    }
    if (isDatabaseUnavailable(error)) {
      // The database is out of reach for a moment (docs/scale.md "Failover"): a retry may succeed.
      request.log.warn({ err: error, url: request.url, method: request.method }, 'database unavailable');
      reply.header('retry-after', String(DATABASE_RETRY_AFTER_SEC));
      return send(reply, 'SERVICE_UNAVAILABLE', locale, null);
    }
    request.log.error({ err: error, url: request.url, method: request.method }, 'unhandled error');
    return send(reply, 'INTERNAL', locale, null);
  });
}

/**
 * Fastify's `frameworkErrors` option: the errors its router raises before any route or hook runs
 * (a path that is no valid URL component, a path parameter over `maxParamLength`), which Fastify
 * otherwise answers in its own shape. Answered in the envelope by status class, no detail.
 */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
  request.log.info({ err: error }, 'refused by the router');
  return send(reply, status >= 500 ? 'INTERNAL' : codeForHttpStatus(status), requestLocale(request), null);
}

/** The envelope of an internal error (code 500, no content, the caller's language): no detail ever. */
export function internalErrorBody(request: FastifyRequest): Envelope<null> {
  return {
    statusCode: BUSINESS_CODES.INTERNAL.code,
    content: null,
    message: businessMessage('INTERNAL', requestLocale(request)),
  };
}

/** Answer for an unknown API path: 404 in the envelope. */
export function sendApiNotFound(request: FastifyRequest, reply: FastifyReply) {
  return send(reply, 'NOT_FOUND', requestLocale(request), null);
}
