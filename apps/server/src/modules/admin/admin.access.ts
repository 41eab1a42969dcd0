import { createHash, randomBytes } from 'node:crypto';
import type { OperatorSession, OperatorView } from '@meridian/contracts/back-office';
import { OPERATOR_ROLES, type OperatorRole } from '@meridian/contracts/operators';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import ipaddr from 'ipaddr.js';
import type { Db, DbOrTx } from '../../platform/db/client.ts';
import type { AuditRecord, AuditWriter } from '../../platform/http/audit.ts';
import type { OperatorAuthProvider, OperatorContext } from '../../platform/http/auth.ts';
import { DomainError, FieldError } from '../../platform/http/errors.ts';
import { hashSecret, verifySecret } from '../../platform/security/passwords.ts';
import { SecretBox } from '../../platform/security/secret-box.ts';
import { matchTotpStep, newTotpSecret, totpUri } from '../../platform/security/totp.ts';
import { adminSessions, auditLog, operators } from './admin.tables.ts';

/** Back-office session rules. */
export const OPERATOR_SESSION_RULES = {
  /** A session unused this long is over. */
  idleTimeoutMinutes: 30,
  /** A session is over this long after sign-in, however busy. */
  absoluteHours: 8,
  /** Failed sign-ins in a row before the account locks. */
  maxFailedSignIns: 5,
  /** How long a lock lasts. */
  lockMinutes: 15,
  /** `last_seen_at` is written at most this often per session (saves a write per request). */
  touchEverySeconds: 60,
} as const;

/** The back-office session cookie; sent only to `/api/admin` (and `/admin`), `SameSite=Strict`. */
export const OPERATOR_COOKIE = 'meridian_admin';
/** The paths the cookie is set on: the API and the back-office pages. */
export const OPERATOR_COOKIE_PATHS = ['/api/admin', '/admin'] as const;

const TOTP_ISSUER = 'Meridian Back Office';

/** SHA-256 (hex): the only form of a token or session cookie the database holds. */
function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

type OperatorRow = typeof operators.$inferSelect;

function isKnownRole(role: string): role is OperatorRole {
  return (OPERATOR_ROLES as readonly string[]).includes(role);
}

/** The back office's view of an operator row. */
export function operatorView(row: OperatorRow): OperatorView {
  return {
    id: row.id,
    email: row.email,
    role: isKnownRole(row.role) ? row.role : 'support',
    isActive: row.isActive,
    hasTotp: row.totpSecret !== null,
    createdAt: row.createdAt.toISOString(),
    lastSignInAt: row.lastSignInAt?.toISOString() ?? null,
  };
}

/** A new session: the cookie token (given to the browser once) and the row's id. */
export interface NewOperatorSession {
  token: string;
  sessionId: string;
  expiresAt: Date;
}

/** What the access service needs from the app. */
export interface OperatorAccessOptions {
  /** The server secret: seals TOTP seeds at rest. */
  secret: string;
  /** IPs / CIDR ranges allowed to reach the back office; empty = any. */
  ipAllowlist: readonly string[];
  /** The app's clock, in milliseconds since the epoch. */
  now: () => number;
}

/** The request facts the access service records. */
export interface RequestFacts {
  ip: string | null;
  userAgent: string | null;
}

/**
 * Operator accounts, sign-in with mandatory TOTP, back-office sessions, and the append-only audit
 * log. Implements the platform's `OperatorAuthProvider` (who is calling an
 * `auth: 'operator'` route) and `AuditWriter` (what the audit hook writes).
 */
export class OperatorAccess implements OperatorAuthProvider, AuditWriter {
  private readonly totpSeeds: SecretBox;
  private readonly allowlist: ([ipaddr.IPv4 | ipaddr.IPv6, number] | ipaddr.IPv4 | ipaddr.IPv6)[];
  private readonly now: () => number;

  constructor(
    private readonly db: Db,
    options: OperatorAccessOptions,
  ) {
    this.totpSeeds = new SecretBox(options.secret, 'operator-totp-seed');
    this.allowlist = options.ipAllowlist.map((entry) =>
      entry.includes('/') ? ipaddr.parseCIDR(entry) : ipaddr.process(entry),
    );
    this.now = options.now;
  }

  // ------------------------------------------------------------ accounts

  /**
   * Create an operator (or, for an existing email, re-key it: new role, new temporary password, new
   * script token, authenticator kept) and return its temporary password and script token, shown
   * once. Only their hashes are stored. Used by `npm run ops -- operators add` and by admins.
   */
  async createOperator(
    email: string,
    role: OperatorRole,
    db: DbOrTx = this.db,
  ): Promise<{ operator: OperatorView; temporaryPassword: string; token: string }> {
    const temporaryPassword = randomBytes(12).toString('base64url');
    const token = `mop_${randomBytes(32).toString('base64url')}`;
    const values = {
      role,
      tokenHash: sha256(token),
      passwordHash: await hashSecret(temporaryPassword),
      isActive: true,
      failedSignIns: 0,
      lockedUntil: null,
    };
    const [row] = await db
      .insert(operators)
      .values({ email: email.trim().toLowerCase(), ...values })
      .onConflictDoUpdate({ target: operators.email, set: values })
      .returning();
    if (!row) throw new Error('operator insert returned nothing');
    return { operator: operatorView(row), temporaryPassword, token };
  }

  /** Every operator, by email. */
  async listOperators(): Promise<OperatorView[]> {
    const rows = await this.db.select().from(operators).orderBy(operators.email);
    return rows.map(operatorView);
  }

  /**
   * Create an operator from the back office (admin). A second account for a known email is refused.
   * @throws DomainError CONFLICT when the email is taken.
   */
  async addOperator(email: string, role: OperatorRole): Promise<{ operator: OperatorView; temporaryPassword: string }> {
    const [existing] = await this.db
      .select({ id: operators.id })
      .from(operators)
      .where(eq(operators.email, email.trim().toLowerCase()));
    if (existing) throw new FieldError('email', 'validation.operatorExists');
    const { operator, temporaryPassword } = await this.createOperator(email, role);
    return { operator, temporaryPassword };
  }

  /**
   * Change an operator's role, (de)activate it, or reset its authenticator; deactivation and a reset
   * end its sessions. An admin cannot demote or deactivate themselves (the last door must stay open).
   * @returns the row before and after, for the audit log.
   * @throws DomainError NOT_FOUND; CONFLICT when acting on oneself.
   */
  async updateOperator(
    actorId: number,
    id: number,
    change: { role?: OperatorRole; isActive?: boolean; resetTotp?: true },
  ): Promise<{ before: OperatorView; after: OperatorView }> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx.select().from(operators).where(eq(operators.id, id)).for('update');
      if (!row) throw new DomainError('NOT_FOUND');
      if (id === actorId && (change.isActive === false || (change.role && change.role !== row.role)))
        throw new DomainError('CONFLICT');
      const [updated] = await tx
        .update(operators)
        .set({
          ...(change.role && { role: change.role }),
          ...(change.isActive !== undefined && { isActive: change.isActive }),
          ...(change.resetTotp && { totpSecret: null, totpPendingSecret: null, totpLastStep: null }),
        })
        .where(eq(operators.id, id))
        .returning();
      if (change.isActive === false || change.resetTotp) await this.revokeSessionsOf(tx, id);
      return { before: operatorView(row), after: operatorView(updated!) };
    });
  }

  private async revokeSessionsOf(db: DbOrTx, operatorId: number): Promise<void> {
    await db
      .update(adminSessions)
      .set({ revokedAt: new Date(this.now()) })
      .where(and(eq(adminSessions.operatorId, operatorId), isNull(adminSessions.revokedAt)));
  }

  // ------------------------------------------------------------ sign-in

  /** True when `ip` may reach the back office (always, with an empty allowlist). */
  isAllowedIp(ip: string | null | undefined): boolean {
    if (this.allowlist.length === 0) return true;
    if (!ip || !ipaddr.isValid(ip)) return false;
    const address = ipaddr.process(ip);
    return this.allowlist.some((entry) => {
      if (Array.isArray(entry)) return address.kind() === entry[0].kind() && address.match(entry);
      return address.kind() === entry.kind() && address.toString() === entry.toString();
    });
  }

  /**
   * Sign in with email and password, then TOTP: a full session when the operator has an
   * authenticator and `totpCode` matches; at the first sign-in (no authenticator) a session that may
   * only enrol, answered with a new seed to scan. Every attempt is in the audit log.
   * @throws DomainError FORBIDDEN (IP not allowed), ACCOUNT_LOCKED (too many failures), LOGIN_FAILED
   *   (unknown email, wrong password, deactivated); FieldError `totpCode` (missing or wrong code).
   */
  async signIn(
    input: { email: string; password: string; totpCode?: string },
    facts: RequestFacts,
  ): Promise<{ session: NewOperatorSession; answer: OperatorSession }> {
    if (!this.isAllowedIp(facts.ip)) throw new DomainError('FORBIDDEN');
    const email = input.email.trim().toLowerCase();
    const [row] = await this.db.select().from(operators).where(eq(operators.email, email));
    const now = this.now();
    if (row?.lockedUntil && row.lockedUntil.getTime() > now) {
      await this.audit(row, 'operator.signInLocked', facts, 103);
      throw new DomainError('ACCOUNT_LOCKED');
    }
    const isPasswordRight = await verifySecret(row?.passwordHash ?? null, input.password);
    if (!row || !row.isActive || !isPasswordRight) {
      if (row) await this.recordFailure(row);
      await this.audit(row ?? null, 'operator.signInFailed', facts, 110, { email });
      throw new DomainError('LOGIN_FAILED');
    }
    if (row.totpSecret === null) {
      const seed = newTotpSecret();
      await this.db
        .update(operators)
        .set({ totpPendingSecret: this.totpSeeds.seal(seed), failedSignIns: 0, lockedUntil: null })
        .where(eq(operators.id, row.id));
      const session = await this.openSession(row.id, false, facts);
      await this.audit(row, 'operator.signInEnrol', facts, 200);
      return {
        session,
        answer: this.answer('enrolTotp', row, { secret: seed, otpauthUri: totpUri(seed, row.email, TOTP_ISSUER) }),
      };
    }
    if (!input.totpCode) throw new FieldError('totpCode', 'validation.required');
    const step = matchTotpStep(this.totpSeeds.open(row.totpSecret), input.totpCode, now);
    if (step === null || (row.totpLastStep !== null && step <= row.totpLastStep)) {
      await this.recordFailure(row);
      await this.audit(row, 'operator.signInFailed', facts, 119, { reason: 'totp' });
      throw new FieldError('totpCode', 'validation.totpInvalid');
    }
    const [updated] = await this.db
      .update(operators)
      .set({ totpLastStep: step, failedSignIns: 0, lockedUntil: null, lastSignInAt: new Date(now) })
      .where(eq(operators.id, row.id))
      .returning();
    const session = await this.openSession(row.id, true, facts);
    await this.audit(row, 'operator.signIn', facts, 200);
    return { session, answer: this.answer('signedIn', updated!, null) };
  }

  /**
   * Confirm the authenticator offered at the first sign-in with a code from it; the session becomes
   * full. @throws DomainError LOGIN_EXPIRED (no enrolling session); FieldError `totpCode` (wrong code).
   */
  async enrolTotp(cookieToken: string | undefined, totpCode: string, facts: RequestFacts): Promise<OperatorSession> {
    const found = cookieToken ? await this.liveSession(cookieToken) : undefined;
    if (!found || found.session.isTotpPassed || !found.operator.totpPendingSecret)
      throw new DomainError('LOGIN_EXPIRED');
    const { operator, session } = found;
    const now = this.now();
    const seed = this.totpSeeds.open(operator.totpPendingSecret!);
    const step = matchTotpStep(seed, totpCode, now);
    if (step === null) {
      await this.audit(operator, 'operator.totpEnrolFailed', facts, 119);
      throw new FieldError('totpCode', 'validation.totpInvalid');
    }
    const updated = await this.db.transaction(async (tx) => {
      const [row] = await tx
        .update(operators)
        .set({
          totpSecret: operator.totpPendingSecret,
          totpPendingSecret: null,
          totpLastStep: step,
          lastSignInAt: new Date(now),
        })
        .where(eq(operators.id, operator.id))
        .returning();
      await tx.update(adminSessions).set({ isTotpPassed: true }).where(eq(adminSessions.id, session.id));
      return row!;
    });
    await this.audit(operator, 'operator.totpEnrolled', facts, 200);
    return this.answer('signedIn', updated, null);
  }

  /** The signed-in operator's session answer. */
  async sessionOf(operatorId: number): Promise<OperatorSession> {
    const [row] = await this.db.select().from(operators).where(eq(operators.id, operatorId));
    if (!row) throw new DomainError('LOGIN_EXPIRED');
    return this.answer('signedIn', row, null);
  }

  /** Revoke the session of a cookie token (sign-out); unknown tokens are ignored. */
  async signOut(cookieToken: string | undefined, facts: RequestFacts): Promise<void> {
    if (!cookieToken) return;
    const found = await this.liveSession(cookieToken);
    await this.db
      .update(adminSessions)
      .set({ revokedAt: new Date(this.now()) })
      .where(eq(adminSessions.tokenHash, sha256(cookieToken)));
    if (found) await this.audit(found.operator, 'operator.signOut', facts, 200);
  }

  private answer(
    state: OperatorSession['state'],
    row: OperatorRow,
    totpEnrolment: OperatorSession['totpEnrolment'],
  ): OperatorSession {
    return {
      state,
      operator: operatorView(row),
      totpEnrolment,
      idleTimeoutMinutes: OPERATOR_SESSION_RULES.idleTimeoutMinutes,
    };
  }

  private async recordFailure(row: OperatorRow): Promise<void> {
    const failures = row.failedSignIns + 1;
    const isLocking = failures >= OPERATOR_SESSION_RULES.maxFailedSignIns;
    await this.db
      .update(operators)
      .set({
        failedSignIns: isLocking ? 0 : failures,
        ...(isLocking && { lockedUntil: new Date(this.now() + OPERATOR_SESSION_RULES.lockMinutes * 60_000) }),
      })
      .where(eq(operators.id, row.id));
  }

  private async openSession(
    operatorId: number,
    isTotpPassed: boolean,
    facts: RequestFacts,
  ): Promise<NewOperatorSession> {
    const token = randomBytes(32).toString('base64url');
    const now = this.now();
    const expiresAt = new Date(now + OPERATOR_SESSION_RULES.absoluteHours * 3_600_000);
    const [row] = await this.db
      .insert(adminSessions)
      .values({
        operatorId,
        tokenHash: sha256(token),
        isTotpPassed,
        ip: facts.ip,
        userAgent: facts.userAgent?.slice(0, 400) ?? null,
        lastSeenAt: new Date(now),
        expiresAt,
      })
      .returning({ id: adminSessions.id });
    return { token, sessionId: row!.id, expiresAt };
  }

  /** The live session of a cookie token and its operator: not revoked, not expired (idle or absolute), operator active. */
  private async liveSession(cookieToken: string) {
    const now = this.now();
    const [found] = await this.db
      .select({ session: adminSessions, operator: operators })
      .from(adminSessions)
      .innerJoin(operators, eq(operators.id, adminSessions.operatorId))
      .where(
        and(
          eq(adminSessions.tokenHash, sha256(cookieToken)),
          isNull(adminSessions.revokedAt),
          gt(adminSessions.expiresAt, new Date(now)),
          gt(adminSessions.lastSeenAt, new Date(now - OPERATOR_SESSION_RULES.idleTimeoutMinutes * 60_000)),
          eq(operators.isActive, true),
        ),
      );
    return found;
  }

  // ------------------------------------------------------------ who is calling

  /**
   * The operator of a back-office request: the session cookie (a full session: TOTP passed, the
   * operator still enrolled) or, for scripts, `authorization: Bearer <token>`; null otherwise or
   * when the IP is outside the allowlist. Touches the session's `last_seen_at` (idle expiry).
   */
  async authenticateOperator(request: FastifyRequest): Promise<OperatorContext | null> {
    if (!this.isAllowedIp(request.ip)) return null;
    const header = request.headers.authorization;
    if (typeof header === 'string' && header.startsWith('Bearer ')) {
      const token = header.slice(7).trim();
      const operator = token ? await this.authenticateToken(token) : undefined;
      return operator ? { ...operator, sessionId: null } : null;
    }
    const cookieToken = request.cookies[OPERATOR_COOKIE];
    if (!cookieToken) return null;
    const found = await this.liveSession(cookieToken);
    if (!found || !found.session.isTotpPassed || found.operator.totpSecret === null) return null;
    const { operator, session } = found;
    if (!isKnownRole(operator.role)) return null;
    const now = this.now();
    if (now - session.lastSeenAt.getTime() > OPERATOR_SESSION_RULES.touchEverySeconds * 1000)
      await this.db
        .update(adminSessions)
        .set({ lastSeenAt: new Date(now) })
        .where(eq(adminSessions.id, session.id));
    return { id: operator.id, email: operator.email, role: operator.role, sessionId: session.id };
  }

  /** The active operator holding a script token, or undefined. */
  async authenticateToken(token: string): Promise<{ id: number; email: string; role: OperatorRole } | undefined> {
    const [row] = await this.db
      .select()
      .from(operators)
      .where(and(eq(operators.tokenHash, sha256(token)), eq(operators.isActive, true)));
    if (!row || !isKnownRole(row.role)) return undefined;
    return { id: row.id, email: row.email, role: row.role };
  }

  // ------------------------------------------------------------ audit log

  /** Append one audit row (the platform's audit hook calls this for every operator write). */
  async write(record: AuditRecord, db: DbOrTx = this.db): Promise<void> {
    await db.insert(auditLog).values({
      operatorId: record.operator?.id ?? null,
      operatorEmail: record.operator?.email ?? null,
      action: record.action,
      targetType: record.targetType,
      targetId: record.targetId,
      before: record.before ?? null,
      after: record.after ?? null,
      reason: record.reason,
      ip: record.ip,
      outcomeCode: record.outcomeCode,
    });
  }

  private async audit(
    row: Pick<OperatorRow, 'id' | 'email'> | null,
    action: string,
    facts: RequestFacts,
    outcomeCode: number,
    after: Record<string, unknown> | null = null,
  ): Promise<void> {
    await this.write({
      operator: row ? { id: row.id, email: row.email } : null,
      action,
      targetType: 'operator',
      targetId: row ? String(row.id) : null,
      before: null,
      after,
      reason: null,
      ip: facts.ip,
      outcomeCode,
    });
  }
}

/** Count of rows in the audit log (tests). */
export async function auditRowCount(db: DbOrTx): Promise<number> {
  const [row] = await db.select({ count: sql<number>`count(*)::int` }).from(auditLog);
  return row?.count ?? 0;
}
