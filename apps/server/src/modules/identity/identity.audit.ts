/**
 * The identity audit log: appending a row (and telling the security-event listeners), the user's
 * recent sign-ins, and the retention rule that deletes rows of long-closed accounts.
 */
import type { SignInItem } from '@meridian/contracts/identity';
import dayjs from 'dayjs';
import { and, desc, eq, inArray, isNull, lt, or } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { describeDevice, type IdentityContext } from './identity.internal.ts';
import { auditEvents, users } from './identity.tables.ts';
import { type RequestMeta, SECURITY_EVENT_KINDS, type SecurityEventListener } from './identity.types.ts';

/** Years audit rows are kept after the account closes (AML record keeping, FATF Recommendation 11). */
export const AUDIT_RETENTION_YEARS_AFTER_CLOSURE = 5;
/** Most audit rows one retention run deletes (STYLE: bound every batch); the next day takes the rest. */
export const AUDIT_PURGE_BATCH_ROWS = 10_000;

/**
 * The audit-log retention rule (docs/identity.md): rows of accounts closed more than
 * AUDIT_RETENTION_YEARS_AFTER_CLOSURE years before `now`, and rows of no account (failed sign-ins
 * for unknown addresses) older than that, are deleted — at most AUDIT_PURGE_BATCH_ROWS per call.
 * Rows of open accounts are kept while the relationship lasts.
 * @returns how many rows were deleted.
 */
export async function purgeExpiredAudit(db: DbOrTx, now: Date): Promise<number> {
  const cutoff = dayjs(now).subtract(AUDIT_RETENTION_YEARS_AFTER_CLOSURE, 'year').toDate();
  const expired = db
    .select({ id: auditEvents.id })
    .from(auditEvents)
    .leftJoin(users, eq(users.id, auditEvents.userId))
    .where(
      or(
        and(isNull(auditEvents.userId), lt(auditEvents.createdAt, cutoff)),
        and(eq(users.status, 'closed'), lt(users.closedAt, cutoff)),
      ),
    )
    .limit(AUDIT_PURGE_BATCH_ROWS);
  const deleted = await db
    .delete(auditEvents)
    .where(inArray(auditEvents.id, expired))
    .returning({ id: auditEvents.id });
  return deleted.length;
}

/** Append an audit row (time, IP, user agent, kind, detail), then tell the security-event listeners. */
export async function audit(
  ctx: IdentityContext,
  userId: string | null,
  kind: string,
  meta: RequestMeta,
  detail: Record<string, unknown> = {},
): Promise<void> {
  await ctx.db.insert(auditEvents).values({
    userId,
    kind,
    ip: meta.ip,
    userAgent: meta.userAgent?.slice(0, 400) ?? null,
    detail,
    // From the app's clock: the retention rule compares it with the clock.
    createdAt: ctx.clock.now(),
  });
  const isSecurityEvent = SECURITY_EVENT_KINDS.has(kind) && (kind !== 'login.success' || detail.isNewDevice === true);
  if (!userId || !isSecurityEvent) return;
  const device = describeDevice(meta.userAgent ?? null);
  for (const listener of ctx.securityEventListeners) {
    await listener({ userId, kind, device, ip: meta.ip }).catch((error: unknown) =>
      ctx.options.log?.('security event listener failed', {
        kind,
        err: error instanceof Error ? error.message : String(error),
      }),
    );
  }
}

/** The audit part of the identity service: the log, its listeners and the sign-in history. */
export function createAuditService(ctx: IdentityContext) {
  return {
    /** Append an audit row (time, IP, user agent, kind, detail), then tell the security-event listeners. */
    audit: (
      userId: string | null,
      kind: string,
      meta: RequestMeta,
      detail: Record<string, unknown> = {},
    ): Promise<void> => audit(ctx, userId, kind, meta, detail),

    /**
     * Register a listener for security events of a user (sign-in from a new device, a factor or
     * password change …): the audit kinds in `SECURITY_EVENT_KINDS`. The notices module uses it to
     * message the user. A failing listener is logged; the user's action stands.
     */
    addSecurityEventListener(listener: SecurityEventListener): void {
      ctx.securityEventListeners.push(listener);
    },

    /** Recent sign-in events (successes, failures, locks), newest first, at most 30. */
    async listSignIns(userId: string): Promise<SignInItem[]> {
      const rows = await ctx.db
        .select()
        .from(auditEvents)
        .where(
          and(
            eq(auditEvents.userId, userId),
            inArray(auditEvents.kind, ['login.success', 'login.failure', 'login.locked', 'logout', 'session.revoked']),
          ),
        )
        .orderBy(desc(auditEvents.id))
        .limit(30);
      return rows.map((row) => ({
        kind: row.kind,
        ip: row.ip,
        userAgent: row.userAgent,
        createdAt: row.createdAt.toISOString(),
      }));
    },
  };
}
