import { UNSAFE_TEXT_PATTERN } from '@meridian/contracts/text';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { OperatorContext } from './auth.ts';
import { internalErrorBody } from './error-handler.ts';

/**
 * The audit trail of back-office writes (who, when, what, before/after, reason,
 * IP). Every state-changing `auth: 'operator'` route is recorded by one hook, so no route can forget
 * it; the handler adds what only it knows (`noteAudit`: the target, the state before and after, the
 * reason). The admin module owns the append-only table and supplies the writer.
 */

/** What a handler tells the audit trail about its action. */
export interface AuditDetail {
  /** What was acted on: 'user', 'withdrawal', 'adjustment', 'operator', 'kyc' … */
  targetType?: string;
  targetId?: string | number | null;
  before?: unknown;
  after?: unknown;
  reason?: string | null;
}

/** One audit row as the writer receives it. */
export interface AuditRecord {
  operator: Pick<OperatorContext, 'id' | 'email'> | null;
  /** The endpoint's name (`freezeUser`), or the service's own action name (`operator.signIn`). */
  action: string;
  targetType: string;
  targetId: string | null;
  before: unknown;
  after: unknown;
  reason: string | null;
  ip: string | null;
  /** The business code answered (200 success; 102 refused …). */
  outcomeCode: number;
}

/** Implemented by the admin module (`admin.audit.ts`). */
export interface AuditWriter {
  /** Append one row. @throws when the database refuses (the request then answers 500). */
  write(record: AuditRecord): Promise<void>;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** What the handler noted for the audit trail (`noteAudit`); null until it does. */
    auditDetail: AuditDetail | null;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Most characters of one audited string (a refused request may carry a 1 MB reason). */
export const AUDIT_TEXT_LENGTH_MAX = 2_000;
/** Deepest nesting of an audited value that is kept; deeper values become '[…]'. */
const AUDIT_DEPTH_MAX = 16;
const UNSAFE_TEXT_GLOBAL = new RegExp(UNSAFE_TEXT_PATTERN.source, 'g');

/**
 * Text as the audit trail may store it: every character the contracts' text rule refuses
 * (`contracts/text.ts`: NUL and other controls, bidi controls, lone surrogates) written as its
 * `\uXXXX` escape, so the row shows exactly what was sent and PostgreSQL accepts it, and cut to
 * `AUDIT_TEXT_LENGTH_MAX` characters (`…` marks a cut).
 */
export function auditText(text: string): string {
  const escaped = text.replace(
    UNSAFE_TEXT_GLOBAL,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return escaped.length > AUDIT_TEXT_LENGTH_MAX ? `${escaped.slice(0, AUDIT_TEXT_LENGTH_MAX)}…` : escaped;
}

/**
 * Any value (a JSON state, path parameters) as the audit trail may store it: strings and object
 * keys through `auditText`, at most `AUDIT_DEPTH_MAX` levels. A refused request is audited with its
 * input in this sanitised form (docs/decisions/0010-input-rules.md).
 */
export function auditValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return auditText(value);
  if (value === null || typeof value !== 'object') return typeof value === 'bigint' ? value.toString() : value;
  if (depth >= AUDIT_DEPTH_MAX) return '[…]';
  if (Array.isArray(value)) return value.map((item) => auditValue(item, depth + 1));
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([key, item]) => [
      auditText(key),
      auditValue(item, depth + 1),
    ]),
  );
}

/** A record with every text and state sanitised by `auditText` / `auditValue`. */
export function sanitiseAuditRecord(record: AuditRecord): AuditRecord {
  return {
    ...record,
    action: auditText(record.action),
    targetType: auditText(record.targetType),
    targetId: record.targetId === null ? null : auditText(record.targetId),
    before: auditValue(record.before),
    after: auditValue(record.after),
    reason: record.reason === null ? null : auditText(record.reason),
    ip: record.ip === null ? null : auditText(record.ip),
  };
}

/** Add to the audit row of this request (a state-changing operator route): target, before/after, reason. */
export function noteAudit(request: FastifyRequest, detail: AuditDetail): void {
  request.auditDetail = { ...request.auditDetail, ...detail };
}

/** The envelope of a JSON answer (`{ statusCode, content }`), or null for any other payload. */
function envelopeOf(payload: unknown): { statusCode: number; content: unknown } | null {
  if (typeof payload !== 'string' || !payload.startsWith('{"statusCode":')) return null;
  try {
    return JSON.parse(payload) as { statusCode: number; content: unknown };
  } catch {
    return null;
  }
}

/** The audit row of one state-changing operator request, from its route, answer and handler's notes. */
function recordOf(request: FastifyRequest, operator: OperatorContext, outcome: AuditOutcome): AuditRecord {
  const config = request.routeOptions.config;
  const detail = request.auditDetail ?? {};
  // A refused request's params and body are the raw input (validation failed): read them defensively.
  const params = (request.params ?? {}) as Record<string, unknown>;
  const body = (request.body !== null && typeof request.body === 'object' ? request.body : {}) as Record<
    string,
    unknown
  >;
  const paramValues = Object.values(params).map(String);
  return {
    operator: { id: operator.id, email: operator.email },
    action: config.operation ?? `${request.method} ${request.routeOptions.url}`,
    targetType: detail.targetType ?? config.operation ?? 'route',
    targetId:
      detail.targetId !== undefined && detail.targetId !== null
        ? String(detail.targetId)
        : paramValues.length > 0
          ? paramValues.join('/')
          : null,
    before: detail.before ?? null,
    // By default the state after is what the call answered (the changed record).
    after: detail.after ?? (outcome.code === 200 ? (outcome.content ?? null) : null),
    reason: detail.reason ?? (typeof body.reason === 'string' ? body.reason : null),
    ip: request.ip ?? null,
    outcomeCode: outcome.code,
  };
}

/** The business code and content a request answered. */
interface AuditOutcome {
  code: number;
  content: unknown;
}

/**
 * Record every state-changing call of an `auth: 'operator'` route that reached an operator —
 * answered or refused (a refused request is audited too, its input sanitised by
 * `sanitiseAuditRecord`) — before its answer is sent (`onSend`): the action is the endpoint's name,
 * the target defaults to the route's path parameters, the state after to the answer's content, the
 * reason to the body's `reason`.
 * A refusal before authentication (no session) has no operator and is not recorded here; the
 * sign-in route records its own attempts.
 * When the row cannot be written, the error is logged and the answer becomes the envelope's 500
 * (code 500, no detail): the hook never throws, so no database text reaches Fastify's own error
 * handler or the client.
 */
export function registerAuditTrail(app: FastifyInstance, writer: AuditWriter): void {
  app.decorateRequest('auditDetail', null);
  app.addHook('onSend', async (request, reply, payload) => {
    const config = request.routeOptions.config;
    if (config.auth !== 'operator' || SAFE_METHODS.has(request.method) || !request.operator) return payload;
    const envelope = envelopeOf(payload);
    const outcome = { code: envelope?.statusCode ?? reply.statusCode, content: envelope?.content };
    try {
      await writer.write(sanitiseAuditRecord(recordOf(request, request.operator, outcome)));
      return payload;
    } catch (error) {
      request.log.error({ err: error, url: request.url, method: request.method }, 'audit row not written');
      reply.status(500).header('content-type', 'application/json; charset=utf-8');
      return JSON.stringify(internalErrorBody(request));
    }
  });
}
