import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { OperatorContext } from './auth.ts';

/**
 * The audit trail of back-office writes (issue 16 "Access": who, when, what, before/after, reason,
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

/**
 * Record every state-changing call of an `auth: 'operator'` route that reached an operator —
 * answered or refused — before its answer is sent (`onSend`): the action is the endpoint's name,
 * the target defaults to the route's path parameters, the state after to the answer's content, the
 * reason to the body's `reason`.
 * A refusal before authentication (no session) has no operator and is not recorded here; the
 * sign-in route records its own attempts.
 */
export function registerAuditTrail(app: FastifyInstance, writer: AuditWriter): void {
  app.decorateRequest('auditDetail', null);
  app.addHook('onSend', async (request, reply, payload) => {
    const config = request.routeOptions.config;
    if (config.auth !== 'operator' || SAFE_METHODS.has(request.method) || !request.operator) return payload;
    const detail = request.auditDetail ?? {};
    const params = (request.params ?? {}) as Record<string, unknown>;
    const body = (request.body ?? {}) as Record<string, unknown>;
    const paramValues = Object.values(params).map(String);
    const envelope = envelopeOf(payload);
    const outcomeCode = envelope?.statusCode ?? reply.statusCode;
    await writer.write({
      operator: { id: request.operator.id, email: request.operator.email },
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
      after: detail.after ?? (outcomeCode === 200 ? (envelope?.content ?? null) : null),
      reason: detail.reason ?? (typeof body.reason === 'string' ? body.reason : null),
      ip: request.ip ?? null,
      outcomeCode,
    });
    return payload;
  });
}
