import { createHash, randomInt } from 'node:crypto';
import type {
  EmailFlowContent,
  LoginContent,
  MfaKeyContent,
  SecurityConfig,
  SelfContent,
  SendCodeContent,
  SessionItem,
  SignInItem,
} from '@meridian/contracts/identity';
import { maskEmail } from '@meridian/contracts/identity';
import { type Locale, toLocale } from '@meridian/contracts/locale';
import type { CaptchaEvent, SensitiveFactors } from '@meridian/contracts/security';
import { and, desc, eq, gt, inArray, isNull, lt, ne, or, sql } from 'drizzle-orm';
import dayjs from 'dayjs';
import QRCode from 'qrcode';
import type { Db, DbOrTx } from '../../platform/db/client.ts';
import { isSqlState, SQLSTATE_UNIQUE_VIOLATION } from '../../platform/db/sql-state.ts';
import type { JobDefinition } from '../../platform/jobs/scheduler.ts';
import { DomainError, FieldError } from '../../platform/http/errors.ts';
import type { SmsSender } from '../../platform/sms/sms.ts';
import { isCommonPassword } from '../../platform/security/common-passwords.ts';
import { createHumanCheckChallenge, type HumanCheckOptions, verifyHumanCheckToken } from '../../platform/security/human-check.ts';
import { keyedHash, randomToken } from '../../platform/security/one-time-codes.ts';
import { hashSecret, verifySecret } from '../../platform/security/passwords.ts';
import { matchTotpStep, newTotpSecret, totpUri } from '../../platform/security/totp.ts';
import { VerificationCodes } from './identity.codes.ts';
import { toE164 } from './identity.countries.ts';
import { SecretBox } from '../../platform/security/secret-box.ts';
import { type MailKind, renderMail } from './identity.mails.ts';
import type { Outbox } from './identity.outbox.ts';
import { auditEvents, flowTickets, humanCheckUses, loginThrottles, mfaRecoveryCodes, sessions, users, verificationCodes } from './identity.tables.ts';
import { type CachedSession, SessionCache } from './identity.session-cache.ts';

/** Who is calling, as the routes see it (no HTTP objects reach the service). */
export interface RequestMeta {
  ip: string | null;
  userAgent: string | null;
  locale: Locale;
  /** The long-lived device cookie, when the browser has one. */
  deviceId: string | null;
}

/** Time rules of sign-in and holds (issue 3). */
export const IDENTITY_RULES = {
  loginFailuresMax: 5,
  loginFailureWindowMinutes: 15,
  loginLockoutMinutes: 15,
  securityPasswordFailuresMax: 5,
  securityPasswordLockoutMinutes: 30,
  sessionIdleMinutes: 30,
  sessionAbsoluteHours: 12,
  /** A session's last-seen time is written at most this often. */
  sessionTouchIntervalMs: 60_000,
  holdAfterPasswordResetHours: 24,
  holdAfterContactChangeHours: 72,
  holdAfterFactorChangeHours: 24,
  recoveryCodeCount: 10,
} as const;

/**
 * Something other modules hold for a user that forbids closing the account: the ledger (balances),
 * funds (holdings), loans (open loans), cards. Each returns human-readable reasons, empty when none.
 */
/**
 * Audit kinds the user is told about (issue 6: sign-in from a new device, security setting
 * changed). `login.success` counts only when it came from a new device.
 */
export const SECURITY_EVENT_KINDS: ReadonlySet<string> = new Set([
  'login.success',
  'password.reset',
  'password.changed',
  'config.switched',
  'mfa.bound',
  'mfa.unbound',
  'security_password.set',
  'security_password.changed',
  'mobile.bound',
  'mobile.changed',
  'email.changed',
]);

/** A security event of one user, for listeners (`addSecurityEventListener`). */
export interface SecurityEvent {
  userId: string;
  /** One of `SECURITY_EVENT_KINDS`. */
  kind: string;
  /** Browser and system from the user agent, e.g. "Chrome on Linux". */
  device: string;
  ip: string | null;
}
export type SecurityEventListener = (event: SecurityEvent) => Promise<void>;

export interface AccountHoldingsChecker {
  /** Reasons (in `locale`) to refuse closing `userId`'s account; [] when nothing is held. */
  reasonsToRefuseClosure(userId: string, locale: Locale): Promise<string[]>;
}

export interface IdentityOptions {
  /** Key for code/ticket HMACs and the human-check signature (the session secret). */
  secret: string;
  /** Proof-of-work size of the human check (low in tests). */
  humanCheckMaxCounter: number;
  /** Every mail is queued here (issue 14 item 6), in the transaction of what it reports when there is one. */
  outbox: Outbox;
  sms: SmsSender;
  /** Issuer shown in authenticator apps. */
  totpIssuer?: string;
  /** Operational log for failures that must not fail the user's action (listeners). */
  log?: (message: string, detail: Record<string, unknown>) => void;
}

type UserRow = typeof users.$inferSelect;

/** A new session's cookie token and row id. */
export interface NewSession {
  token: string;
  sessionId: string;
  expiresAt: Date;
}

/** Result of a successful login call: the answer, and the session when one was opened. */
export interface LoginResult {
  content: LoginContent;
  session: NewSession | null;
}

/** The resend wait a delivered code answers with (`CODE_RULES.resendAfterMs`, in seconds). */
const CODE_RESEND_AFTER_SEC = 59;
const hours = (count: number) => count * 3_600_000;
const minutes = (count: number) => count * 60_000;
const flag = (value: boolean) => (value ? 1 : 0);
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/** Anonymous code events: the only ones a signed-out caller may ask for, each tied to its flow. */
const ANONYMOUS_EVENTS: Partial<Record<CaptchaEvent, 'login' | 'register' | 'recover'>> = {
  EMAIL_REGISTER: 'register',
  FORGET_PASSWORD: 'recover',
  LOGIN_CHECK: 'login',
};

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
    .where(or(and(isNull(auditEvents.userId), lt(auditEvents.createdAt, cutoff)), and(eq(users.status, 'closed'), lt(users.closedAt, cutoff))))
    .limit(AUDIT_PURGE_BATCH_ROWS);
  const deleted = await db.delete(auditEvents).where(inArray(auditEvents.id, expired)).returning({ id: auditEvents.id });
  return deleted.length;
}

/**
 * Refuse a user below the KYC level a route needs (basic = level 1, investor = level 2). The level
 * is 0 until the KYC module (a later issue) verifies the user; `setKycLevel` sets it.
 * @throws DomainError VERIFICATION_REQUIRED (105) when `kycLevel` is lower.
 */
export function assertKycLevel(kycLevel: number, level: 'basic' | 'investor'): void {
  if (kycLevel < (level === 'basic' ? 1 : 2)) throw new DomainError('VERIFICATION_REQUIRED');
}

/**
 * Identity and security (issue 3): accounts, human check, email/SMS codes, login with optional
 * second factors, sessions, security configuration, authenticator, trading password, mobile,
 * sensitive-action checks, withdrawal holds, account closure and the audit log.
 */
export class IdentityService {
  readonly codes: VerificationCodes;
  private readonly humanCheck: HumanCheckOptions;
  /** Seals authenticator seeds at rest (`users.mfa_secret`, `users.mfa_pending_secret`). */
  private readonly totpSecrets: SecretBox;
  private readonly holdingsCheckers: AccountHoldingsChecker[] = [];
  private readonly securityEventListeners: SecurityEventListener[] = [];

  /** Sessions resolved recently by this process (see `resolveSession`). */
  private readonly sessionCache = new SessionCache();

  constructor(
    private readonly db: Db,
    private readonly options: IdentityOptions,
  ) {
    this.codes = new VerificationCodes(db, options.secret);
    this.totpSecrets = new SecretBox(options.secret, 'totp-seed');
    this.humanCheck = { hmacSecret: `${options.secret}:altcha`, maxCounter: options.humanCheckMaxCounter, challengeTtlMs: minutes(10) };
  }

  /**
   * Register a listener for security events of a user (sign-in from a new device, a factor or
   * password change …): the audit kinds in `SECURITY_EVENT_KINDS`. The notices module uses it to
   * message the user (issue 6). A failing listener is logged; the user's action stands.
   */
  addSecurityEventListener(listener: SecurityEventListener): void {
    this.securityEventListeners.push(listener);
  }

  /** Register a module that can forbid account closure (ledger, funds, loans, cards). */
  addHoldingsChecker(checker: AccountHoldingsChecker): void {
    this.holdingsCheckers.push(checker);
  }

  // ------------------------------------------------------------------ human check

  /** A new ALTCHA challenge for the widget. */
  createHumanCheckChallenge() {
    return createHumanCheckChallenge(this.humanCheck);
  }

  /** @throws DomainError CAPTCHA_FAILED (119) when the token is malformed, wrong, expired or reused. */
  async verifyHumanCheck(token: string, meta: RequestMeta): Promise<void> {
    const failure = await verifyHumanCheckToken(this.humanCheck, token, async (nonce, expiresAt) => {
      const inserted = await this.db.insert(humanCheckUses).values({ nonce, expiresAt }).onConflictDoNothing().returning({ nonce: humanCheckUses.nonce });
      return inserted.length === 1;
    });
    if (failure) {
      await this.audit(null, 'human_check.failure', meta, { reason: failure });
      throw new DomainError('CAPTCHA_FAILED');
    }
  }

  // ------------------------------------------------------------------ register and recover

  /**
   * `user/register` steps 1 and 2 (and 3 when `password` is present): see `emailFlowRequestSchema`.
   * @throws DomainError CAPTCHA_FAILED on a bad token, ticket or code; FieldError on a common password.
   */
  async register(
    body: { email: string; token?: string; ticket?: string; emailCaptcha?: string; password?: string },
    meta: RequestMeta,
  ): Promise<EmailFlowContent> {
    const { email } = body;
    if (!body.ticket) {
      await this.verifyHumanCheck(body.token ?? '', meta);
      const ticket = await this.codes.issueTicket('register', email, null);
      return { email: true, mfa: false, security: false, ticket, accountId: null };
    }
    await this.codes.checkTicket(body.ticket, 'register', email);
    if (body.emailCaptcha === undefined) throw new FieldError('emailCaptcha', 'validation.emailCode');
    if (body.password === undefined) {
      await this.codes.check('email', email, 'EMAIL_REGISTER', body.emailCaptcha, { consume: false });
      return { email: true, mfa: false, security: false, ticket: body.ticket, accountId: null };
    }
    this.assertPasswordAllowed(body.password);
    await this.codes.check('email', email, 'EMAIL_REGISTER', body.emailCaptcha, { consume: true });
    const passwordHash = await hashSecret(body.password);
    const inserted = await this.db.insert(users).values({ email, passwordHash, locale: meta.locale }).onConflictDoNothing().returning({ id: users.id });
    const created = inserted[0];
    if (!created) throw new DomainError('CONFLICT');
    await this.codes.consumeTicket(body.ticket);
    await this.audit(created.id, 'account.registered', meta);
    return { email: false, mfa: false, security: false, ticket: null, accountId: created.id };
  }

  /** `user/forgetPassword` steps 1 and 2 (Mail and Verify of Recover). Unknown addresses answer alike. */
  async forgetPassword(body: { email: string; token?: string; ticket?: string; emailCaptcha?: string }, meta: RequestMeta): Promise<EmailFlowContent> {
    if (!body.ticket) {
      await this.verifyHumanCheck(body.token ?? '', meta);
      const ticket = await this.codes.issueTicket('recover', body.email, null);
      return { email: true, mfa: false, security: false, ticket, accountId: null };
    }
    await this.codes.checkTicket(body.ticket, 'recover', body.email);
    if (body.emailCaptcha === undefined) throw new FieldError('emailCaptcha', 'validation.emailCode');
    await this.codes.check('email', body.email, 'FORGET_PASSWORD', body.emailCaptcha, { consume: false });
    return { email: true, mfa: false, security: false, ticket: body.ticket, accountId: null };
  }

  /**
   * `user/resetPassword`: set a new password, revoke every session, hold withdrawals 24 hours.
   * @throws DomainError CAPTCHA_FAILED on a bad ticket or code; FieldError on a common password.
   */
  async resetPassword(body: { email: string; ticket: string; emailCaptcha: string; password: string }, meta: RequestMeta): Promise<EmailFlowContent> {
    await this.codes.checkTicket(body.ticket, 'recover', body.email);
    this.assertPasswordAllowed(body.password);
    await this.codes.check('email', body.email, 'FORGET_PASSWORD', body.emailCaptcha, { consume: true });
    const user = await this.findActiveByEmail(body.email);
    if (!user) throw new DomainError('CAPTCHA_FAILED');
    const passwordHash = await hashSecret(body.password);
    await this.db.transaction(async (tx) => {
      await tx.update(users).set({ passwordHash }).where(eq(users.id, user.id));
      await tx.update(sessions).set({ revokedAt: new Date() }).where(and(eq(sessions.userId, user.id), isNull(sessions.revokedAt)));
      await tx.delete(loginThrottles).where(eq(loginThrottles.email, user.email));
    });
    this.forgetSessions(user.id);
    await this.extendWithdrawalHold(user.id, hours(IDENTITY_RULES.holdAfterPasswordResetHours));
    await this.codes.consumeTicket(body.ticket);
    await this.audit(user.id, 'password.reset', meta);
    await this.mail(user.email, user.locale, 'passwordReset', {});
    return { email: false, mfa: false, security: false, ticket: null, accountId: null };
  }

  /**
   * Change the password while signed in: needs the old one and an email code (PASSWORD_CHANGE);
   * other sessions are revoked and withdrawals held 24 hours.
   */
  async changePassword(
    userId: string,
    currentSessionId: string,
    body: { oldPassword: string; password: string; emailCaptcha: string; mfaCode?: string },
    meta: RequestMeta,
  ): Promise<void> {
    const user = await this.requireUser(userId);
    if (!(await verifySecret(user.passwordHash, body.oldPassword))) throw new FieldError('oldPassword', 'validation.wrongPassword');
    if (body.oldPassword === body.password) throw new FieldError('password', 'validation.samePassword');
    this.assertPasswordAllowed(body.password);
    await this.verifyFactors(user, 'PASSWORD_CHANGE', { emailCaptcha: body.emailCaptcha, mfaCode: body.mfaCode }, { email: true, mfa: user.mfaSecret !== null, security: false }, meta);
    const passwordHash = await hashSecret(body.password);
    await this.db.transaction(async (tx) => {
      await tx.update(users).set({ passwordHash }).where(eq(users.id, user.id));
      await tx
        .update(sessions)
        .set({ revokedAt: new Date() })
        .where(and(eq(sessions.userId, user.id), isNull(sessions.revokedAt), sql`${sessions.id} <> ${currentSessionId}`));
    });
    this.forgetSessions(user.id);
    await this.extendWithdrawalHold(user.id, hours(IDENTITY_RULES.holdAfterPasswordResetHours));
    await this.audit(user.id, 'password.changed', meta);
    await this.mail(user.email, user.locale, 'passwordReset', {});
  }

  /** @throws FieldError `password` when it is among the 100,000 most common passwords. */
  private assertPasswordAllowed(password: string): void {
    if (isCommonPassword(password)) throw new FieldError('password', 'validation.passwordCommon');
  }

  // ------------------------------------------------------------------ codes

  /**
   * `user/captcha`: send an email code for `event`. Signed in: to the account's address. Signed out:
   * only the flow events, with the flow's ticket; a register code for an existing account becomes a
   * notice instead, and a recover code for an unknown address is not delivered, so the answer never
   * tells whether an account exists.
   */
  async sendEmailCode(
    auth: { userId: string } | null,
    body: { event: CaptchaEvent; email?: string; ticket?: string },
    meta: RequestMeta,
  ): Promise<SendCodeContent> {
    if (auth) {
      const user = await this.requireUser(auth.userId);
      const code = await this.codes.issue('email', user.email, body.event, user.id);
      const resendAfterSeconds = await this.mailCode(user.email, user.locale, code, body.event);
      await this.audit(user.id, 'code.sent', meta, { event: body.event, isDelivered: resendAfterSeconds > 0 });
      return { maskedTo: maskEmail(user.email), resendAfterSeconds };
    }
    const purpose = ANONYMOUS_EVENTS[body.event];
    if (!purpose) throw new DomainError('LOGIN_EXPIRED');
    if (!body.email) throw new FieldError('email', 'validation.required');
    if (!body.ticket) throw new FieldError('ticket', 'validation.humanCheck');
    const ticket = await this.codes.checkTicket(body.ticket, purpose, body.email);
    const user = await this.findActiveByEmail(body.email);
    const code = await this.codes.issue('email', body.email, body.event, ticket.userId);
    let resendAfterSeconds: number = CODE_RESEND_AFTER_SEC;
    if (purpose === 'register' && user) await this.mail(body.email, user.locale, 'alreadyRegistered', {}, body.event);
    else if (purpose === 'register' || user) resendAfterSeconds = await this.mailCode(body.email, user?.locale ?? meta.locale, code, body.event);
    return { maskedTo: maskEmail(body.email), resendAfterSeconds };
  }

  // ------------------------------------------------------------------ login

  /**
   * `user/login` (spec §4 Login). Unknown email and wrong password answer alike (LOGIN_FAILED 110)
   * after the same argon2 work; 5 failures in 15 minutes lock the address for 15 minutes (103).
   */
  async login(
    body: { email: string; password: string; token?: string; ticket?: string; emailCaptcha?: string; mfaCode?: string; recoveryCode?: string },
    meta: RequestMeta,
  ): Promise<LoginResult> {
    const { email } = body;
    await this.assertNotLocked(email);
    if (body.ticket) await this.codes.checkTicket(body.ticket, 'login', email);
    else await this.verifyHumanCheck(body.token ?? '', meta);

    const user = await this.findActiveByEmail(email);
    const isPasswordRight = await verifySecret(user?.passwordHash ?? null, body.password);
    if (!user || !isPasswordRight) {
      await this.recordLoginFailure(email, user?.id ?? null, meta, 'password');
      throw new DomainError('LOGIN_FAILED');
    }
    const needsEmail = user.isLoginEmailOn;
    const needsMfa = user.isLoginMfaOn && user.mfaSecret !== null;
    if ((needsEmail || needsMfa) && !body.ticket) {
      const ticket = await this.codes.issueTicket('login', email, user.id);
      await this.audit(user.id, 'login.factors_requested', meta, { email: needsEmail, mfa: needsMfa });
      return { content: { accountId: null, email: needsEmail, mfa: needsMfa, security: false, ticket }, session: null };
    }
    if (needsEmail && !body.emailCaptcha) throw new FieldError('emailCaptcha', 'validation.emailCode');
    if (needsMfa && !body.mfaCode && !body.recoveryCode) throw new FieldError('mfaCode', 'validation.mfaCode');
    if (needsEmail) await this.codes.check('email', email, 'LOGIN_CHECK', body.emailCaptcha ?? '', { consume: false, userId: user.id });
    if (needsMfa) {
      const isMfaRight = body.recoveryCode ? await this.useRecoveryCode(user.id, body.recoveryCode) : await this.acceptTotp(user, body.mfaCode ?? '');
      if (!isMfaRight) {
        await this.recordLoginFailure(email, user.id, meta, 'mfa');
        throw new DomainError('CAPTCHA_FAILED');
      }
    }
    if (needsEmail) await this.codes.check('email', email, 'LOGIN_CHECK', body.emailCaptcha ?? '', { consume: true, userId: user.id });
    if (body.ticket) await this.codes.consumeTicket(body.ticket);

    await this.db.delete(loginThrottles).where(eq(loginThrottles.email, email));
    const isNewDevice = await this.isNewDevice(user.id, meta.deviceId);
    // The session and its new-device mail commit together or not at all (issue 14 item 6); the mail
    // is sent after the commit, and a mail outage only leaves it queued for the delivery job.
    const { session, mailId } = await this.db.transaction(async (tx) => {
      const opened = await this.openSession(user.id, meta, tx);
      await tx.update(users).set({ locale: meta.locale }).where(eq(users.id, user.id));
      const queued = isNewDevice
        ? await this.queueMail(tx, user.email, meta.locale, 'newDevice', {
            time: new Date().toISOString().slice(0, 16).replace('T', ' '),
            ip: meta.ip ?? '-',
            device: describeDevice(meta.userAgent),
          })
        : null;
      return { session: opened, mailId: queued };
    });
    await this.audit(user.id, 'login.success', meta, { sessionId: session.sessionId, isNewDevice });
    if (mailId !== null) await this.options.outbox.deliver(mailId);
    return { content: { accountId: user.id, email: false, mfa: false, security: false, ticket: null }, session };
  }

  private async assertNotLocked(email: string): Promise<void> {
    const [row] = await this.db.select().from(loginThrottles).where(eq(loginThrottles.email, email)).limit(1);
    if (row?.lockedUntil && row.lockedUntil.getTime() > Date.now()) throw new DomainError('ACCOUNT_LOCKED');
  }

  /** Count a failed sign-in for the address (existing or not); the fifth in 15 minutes locks it. */
  private async recordLoginFailure(email: string, userId: string | null, meta: RequestMeta, reason: string): Promise<void> {
    const windowStart = new Date(Date.now() - minutes(IDENTITY_RULES.loginFailureWindowMinutes));
    const lockUntil = new Date(Date.now() + minutes(IDENTITY_RULES.loginLockoutMinutes));
    const [row] = await this.db
      .insert(loginThrottles)
      .values({ email, failedCount: 1, windowStartedAt: new Date() })
      .onConflictDoUpdate({
        target: loginThrottles.email,
        set: {
          failedCount: sql`CASE WHEN ${loginThrottles.windowStartedAt} < ${windowStart} THEN 1 ELSE ${loginThrottles.failedCount} + 1 END`,
          windowStartedAt: sql`CASE WHEN ${loginThrottles.windowStartedAt} < ${windowStart} THEN now() ELSE ${loginThrottles.windowStartedAt} END`,
        },
      })
      .returning();
    if (row && row.failedCount >= IDENTITY_RULES.loginFailuresMax) {
      await this.db.update(loginThrottles).set({ lockedUntil: lockUntil, failedCount: 0, windowStartedAt: new Date() }).where(eq(loginThrottles.email, email));
      await this.audit(userId, 'login.locked', meta, { until: lockUntil.toISOString() });
    }
    await this.audit(userId, 'login.failure', meta, { reason });
  }

  /** A device that never signed in to this account before; the very first sign-in is not "new". */
  private async isNewDevice(userId: string, deviceId: string | null): Promise<boolean> {
    const [any] = await this.db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, userId)).limit(1);
    if (!any) return false;
    if (!deviceId) return true;
    const [row] = await this.db
      .select({ id: sessions.id })
      .from(sessions)
      .where(and(eq(sessions.userId, userId), eq(sessions.deviceId, deviceId)))
      .limit(1);
    return !row;
  }

  // ------------------------------------------------------------------ sessions

  private async openSession(userId: string, meta: RequestMeta, tx: DbOrTx = this.db): Promise<NewSession> {
    const token = randomToken();
    const expiresAt = new Date(Date.now() + hours(IDENTITY_RULES.sessionAbsoluteHours));
    const [row] = await tx
      .insert(sessions)
      .values({ userId, tokenHash: sha256(token), deviceId: meta.deviceId, ip: meta.ip, userAgent: meta.userAgent?.slice(0, 400) ?? null, expiresAt })
      .returning({ id: sessions.id });
    if (!row) throw new Error('session insert returned nothing');
    return { token, sessionId: row.id, expiresAt };
  }

  /**
   * The live session of a cookie token: not revoked, before its absolute expiry, used within the idle
   * limit, of an active user. Refreshes the last-seen time at most once a minute. Reuses what this
   * process resolved in the last `SESSION_CACHE_TTL_MS` unless `fresh` (sensitive actions read the
   * database): within the touch interval the idle limit cannot have passed, and revocations drop
   * cached entries at once (`forgetSessions`, fed by the `identity_sessions` notifications).
   *
   * `locale` is the language the caller uses now (the `User-Lang` header, spec §7, when sent): when
   * it differs from the stored one, the user's language becomes it, so messages and mails written
   * later — a swap's "Exchange completed", a withdrawal's notice — come in the language the user
   * switched to rather than the one of their last sign-in.
   * @returns null for an unknown, revoked, expired or idle session, or an account not active.
   */
  async resolveSession(token: string, options: { fresh?: boolean; locale?: Locale } = {}): Promise<{ userId: string; sessionId: string; kycLevel: number } | null> {
    if (!/^[\w-]{20,100}$/.test(token)) return null;
    const now = Date.now();
    const tokenHash = sha256(token);
    const cached = options.fresh ? undefined : this.sessionCache.get(tokenHash);
    if (cached && cached.expiresAtMs > now && now - cached.lastSeenAtMs <= IDENTITY_RULES.sessionTouchIntervalMs) {
      if (options.locale && options.locale !== cached.locale) await this.followLocale(tokenHash, cached, options.locale);
      return { userId: cached.userId, sessionId: cached.sessionId, kycLevel: cached.kycLevel };
    }
    const [row] = await this.db
      .select({ id: sessions.id, userId: sessions.userId, lastSeenAt: sessions.lastSeenAt, expiresAt: sessions.expiresAt, revokedAt: sessions.revokedAt, status: users.status, kycLevel: users.kycLevel, locale: users.locale })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(eq(sessions.tokenHash, tokenHash))
      .limit(1);
    if (!row || row.revokedAt || row.status !== 'active') return null;
    if (row.expiresAt.getTime() <= now || now - row.lastSeenAt.getTime() > minutes(IDENTITY_RULES.sessionIdleMinutes)) return null;
    let lastSeenAtMs = row.lastSeenAt.getTime();
    if (now - lastSeenAtMs > IDENTITY_RULES.sessionTouchIntervalMs) {
      await this.db.update(sessions).set({ lastSeenAt: new Date(now) }).where(eq(sessions.id, row.id));
      lastSeenAtMs = now;
    }
    const session: CachedSession = { userId: row.userId, sessionId: row.id, kycLevel: row.kycLevel, locale: toLocale(row.locale), expiresAtMs: row.expiresAt.getTime(), lastSeenAtMs };
    if (options.locale && options.locale !== session.locale) await this.followLocale(tokenHash, session, options.locale);
    else this.sessionCache.set(tokenHash, session);
    return { userId: row.userId, sessionId: row.id, kycLevel: row.kycLevel };
  }

  /** Store `locale` as the user's language and in the cached session. */
  private async followLocale(tokenHash: string, session: CachedSession, locale: Locale): Promise<void> {
    await this.db.update(users).set({ locale }).where(and(eq(users.id, session.userId), ne(users.locale, locale)));
    this.sessionCache.set(tokenHash, { ...session, locale });
  }

  /**
   * Forget this process's cached sessions of `userId` (after a revocation, a status or KYC change;
   * app.ts feeds it the `identity_sessions` notifications of every process), or all of them when
   * no user is given (the notifications may have been missed).
   */
  forgetSessions(userId?: string): void {
    if (userId === undefined) this.sessionCache.clear();
    else this.sessionCache.forgetUser(userId);
  }

  /** Revoke the session of a cookie token (logout). Unknown tokens are ignored. */
  async logout(token: string, meta: RequestMeta): Promise<void> {
    const revoked = await this.db
      .update(sessions)
      .set({ revokedAt: new Date() })
      .where(and(eq(sessions.tokenHash, sha256(token)), isNull(sessions.revokedAt)))
      .returning({ userId: sessions.userId, id: sessions.id });
    for (const row of revoked) {
      this.forgetSessions(row.userId);
      await this.audit(row.userId, 'logout', meta, { sessionId: row.id });
    }
  }

  /** Active sessions of the user, newest first (at most 50). */
  async listSessions(userId: string, currentSessionId: string): Promise<SessionItem[]> {
    const rows = await this.db
      .select()
      .from(sessions)
      .where(
        and(
          eq(sessions.userId, userId),
          isNull(sessions.revokedAt),
          gt(sessions.expiresAt, new Date()),
          gt(sessions.lastSeenAt, new Date(Date.now() - minutes(IDENTITY_RULES.sessionIdleMinutes))),
        ),
      )
      .orderBy(desc(sessions.lastSeenAt))
      .limit(50);
    return rows.map((row) => ({
      id: row.id,
      device: describeDevice(row.userAgent),
      ip: row.ip,
      createdAt: row.createdAt.toISOString(),
      lastSeenAt: row.lastSeenAt.toISOString(),
      isCurrent: row.id === currentSessionId,
    }));
  }

  /** Revoke one of the user's sessions. @throws DomainError NOT_FOUND when it is not theirs or not live. */
  async revokeSession(userId: string, sessionId: string, meta: RequestMeta): Promise<void> {
    const revoked = await this.db
      .update(sessions)
      .set({ revokedAt: new Date() })
      .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId), isNull(sessions.revokedAt)))
      .returning({ id: sessions.id });
    if (revoked.length === 0) throw new DomainError('NOT_FOUND');
    this.forgetSessions(userId);
    await this.audit(userId, 'session.revoked', meta, { sessionId });
  }

  /** Recent sign-in events (successes, failures, locks), newest first, at most 30. */
  async listSignIns(userId: string): Promise<SignInItem[]> {
    const rows = await this.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.userId, userId), inArray(auditEvents.kind, ['login.success', 'login.failure', 'login.locked', 'logout', 'session.revoked'])))
      .orderBy(desc(auditEvents.id))
      .limit(30);
    return rows.map((row) => ({ kind: row.kind, ip: row.ip, userAgent: row.userAgent, createdAt: row.createdAt.toISOString() }));
  }

  // ------------------------------------------------------------------ user state

  /** `user/self` (spec §3). */
  async self(userId: string): Promise<SelfContent> {
    const user = await this.requireUser(userId);
    return {
      uid: user.id,
      uuid: user.id,
      email: user.email,
      mobile: user.mobile,
      mobileCountry: user.mobileCountry,
      mobileCode: user.mobileCode,
      country: null,
      locale: user.locale,
      createdAt: user.createdAt.toISOString(),
      status: {
        user: { status: user.kycLevel >= 1 ? 1 : 0, message: '' },
        investor: { status: user.kycLevel >= 2 ? 1 : 0, message: '' },
        aml: 0,
        qualify: 0,
      },
      conf: this.configOf(user),
      identity: { basic: null, investor: null },
    };
  }

  /** `user/config` (spec §3 conf). */
  async securityConfig(userId: string): Promise<SecurityConfig> {
    return this.configOf(await this.requireUser(userId));
  }

  private configOf(user: UserRow): SecurityConfig {
    const hold = user.withdrawalHoldUntil && user.withdrawalHoldUntil.getTime() > Date.now() ? user.withdrawalHoldUntil.toISOString() : null;
    return {
      security: flag(user.securityPasswordHash !== null),
      mfa: user.mfaSecret ? ['google'] : [],
      login: { email: flag(user.isLoginEmailOn), mfa: flag(user.isLoginMfaOn && user.mfaSecret !== null) },
      trade: {
        email: flag(user.isTradeEmailOn),
        mfa: flag(user.isTradeMfaOn && user.mfaSecret !== null),
        security: flag(user.isTradeSecurityOn && user.securityPasswordHash !== null),
      },
      mobile: flag(user.mobile !== null),
      withdrawalHoldUntil: hold,
    };
  }

  /** The factors the user's trade configuration requires for sensitive actions (spec §4). */
  private tradeFactors(user: UserRow) {
    return {
      email: user.isTradeEmailOn,
      mfa: user.isTradeMfaOn && user.mfaSecret !== null,
      security: user.isTradeSecurityOn && user.securityPasswordHash !== null,
    };
  }

  /**
   * `user/config/switch`: change one factor of the login or trade configuration after checking an
   * email code (CONFIG_SWITCH) and the factors the scope currently requires. The trade scope keeps at
   * least one factor; turning a trade factor off holds withdrawals 24 hours.
   */
  async switchConfig(
    userId: string,
    body: { scope: 'login' | 'trade'; factor: 'email' | 'mfa' | 'security'; isEnabled: boolean } & SensitiveFactors,
    meta: RequestMeta,
  ): Promise<SecurityConfig> {
    const user = await this.requireUser(userId);
    if (body.isEnabled && body.factor === 'mfa' && !user.mfaSecret) throw new FieldError('factor', 'validation.mfaNotBound');
    if (body.isEnabled && body.factor === 'security' && !user.securityPasswordHash) throw new FieldError('factor', 'validation.securityPasswordNotSet');
    const next = {
      email: body.scope === 'login' ? user.isLoginEmailOn : user.isTradeEmailOn,
      mfa: body.scope === 'login' ? user.isLoginMfaOn && user.mfaSecret !== null : user.isTradeMfaOn && user.mfaSecret !== null,
      security: body.scope === 'trade' && user.isTradeSecurityOn && user.securityPasswordHash !== null,
    };
    const current = { ...next };
    next[body.factor] = body.isEnabled;
    if (body.scope === 'trade' && !next.email && !next.mfa && !next.security) throw new FieldError('isEnabled', 'validation.bindingRequired');
    await this.verifyFactors(user, 'CONFIG_SWITCH', body, { ...current, email: true }, meta);
    const changes =
      body.scope === 'login'
        ? body.factor === 'email'
          ? { isLoginEmailOn: body.isEnabled }
          : { isLoginMfaOn: body.isEnabled }
        : body.factor === 'email'
          ? { isTradeEmailOn: body.isEnabled }
          : body.factor === 'mfa'
            ? { isTradeMfaOn: body.isEnabled }
            : { isTradeSecurityOn: body.isEnabled };
    await this.db.update(users).set(changes).where(eq(users.id, user.id));
    if (body.scope === 'trade' && !body.isEnabled) await this.extendWithdrawalHold(user.id, hours(IDENTITY_RULES.holdAfterFactorChangeHours));
    await this.audit(user.id, 'config.switched', meta, { scope: body.scope, factor: body.factor, isEnabled: body.isEnabled });
    return this.securityConfig(user.id);
  }

  // ------------------------------------------------------------------ sensitive actions

  /**
   * The sensitive-action guard (spec §4): demand exactly the factors the user's trade configuration
   * requires for `event`, check them and record the check.
   * @throws FieldError naming a missing factor (120); DomainError CAPTCHA_FAILED (119) for a wrong
   * one; ACCOUNT_LOCKED (103) while the security code is locked.
   */
  /**
   * The sensitive-action check of `event` (the route's `sensitiveAction`): `factors` against the
   * user's trade configuration. Checks every factor now — a wrong one answers 119 and is counted
   * here — but uses up nothing: it returns the step that uses up the email code, which the caller
   * runs last, in the transaction of the action it authorises (issue 14 item 5).
   * @returns `consume(db?)`: uses up the email code on `db` (default: this service's database).
   * @throws DomainError CAPTCHA_FAILED (119), ACCOUNT_LOCKED; FieldError for a missing factor (120).
   */
  async verifySensitiveAction(userId: string, event: CaptchaEvent, factors: SensitiveFactors, meta: RequestMeta): Promise<(db?: DbOrTx) => Promise<void>> {
    const user = await this.requireUser(userId);
    const codeId = await this.checkFactors(user, event, factors, this.tradeFactors(user), meta);
    await this.audit(user.id, 'sensitive_action.verified', meta, { event });
    return async (db = this.db) => {
      if (codeId !== undefined) await this.codes.consume(db, codeId);
    };
  }

  /**
   * Check `factors` against `required`: the email code first (without using it), then the security
   * code, then the authenticator (its step is recorded), and only then is the email code used up,
   * so a wrong second factor does not cost the user their email code.
   */
  private async verifyFactors(
    user: UserRow,
    event: CaptchaEvent,
    factors: SensitiveFactors,
    required: { email: boolean; mfa: boolean; security: boolean },
    meta: RequestMeta,
  ): Promise<void> {
    const codeId = await this.checkFactors(user, event, factors, required, meta);
    if (codeId !== undefined) await this.codes.consume(this.db, codeId);
  }

  /**
   * The checks of `verifyFactors` without using up the email code.
   * @returns the id of the accepted email code, to use up; undefined when no email code is required.
   */
  private async checkFactors(
    user: UserRow,
    event: CaptchaEvent,
    factors: SensitiveFactors,
    required: { email: boolean; mfa: boolean; security: boolean },
    meta: RequestMeta,
  ): Promise<string | undefined> {
    const needsMfa = required.mfa && user.mfaSecret !== null;
    const needsSecurity = required.security && user.securityPasswordHash !== null;
    if (required.email && !factors.emailCaptcha) throw new FieldError('emailCaptcha', 'validation.emailCode');
    if (needsSecurity && !factors.securityPassword) throw new FieldError('securityPassword', 'validation.securityPassword');
    if (needsMfa && !factors.mfaCode) throw new FieldError('mfaCode', 'validation.mfaCode');
    const codeId = required.email ? await this.codes.check('email', user.email, event, factors.emailCaptcha ?? '', { consume: false, userId: user.id }) : undefined;
    if (needsSecurity) await this.checkSecurityPassword(user, factors.securityPassword ?? '', meta);
    if (needsMfa && !(await this.acceptTotp(user, factors.mfaCode ?? ''))) {
      await this.audit(user.id, 'mfa.failure', meta, { event });
      throw new DomainError('CAPTCHA_FAILED');
    }
    return codeId;
  }

  /** Check the 6-digit security code; 5 wrong in a row lock it for 30 minutes. */
  private async checkSecurityPassword(user: UserRow, securityPassword: string, meta: RequestMeta): Promise<void> {
    if (user.securityLockedUntil && user.securityLockedUntil.getTime() > Date.now()) throw new DomainError('ACCOUNT_LOCKED');
    if (await verifySecret(user.securityPasswordHash, securityPassword)) {
      if (user.securityFailedCount > 0) await this.db.update(users).set({ securityFailedCount: 0 }).where(eq(users.id, user.id));
      return;
    }
    const failedCount = user.securityFailedCount + 1;
    const isLocked = failedCount >= IDENTITY_RULES.securityPasswordFailuresMax;
    await this.db
      .update(users)
      .set(
        isLocked
          ? { securityFailedCount: 0, securityLockedUntil: new Date(Date.now() + minutes(IDENTITY_RULES.securityPasswordLockoutMinutes)) }
          : { securityFailedCount: sql`${users.securityFailedCount} + 1` },
      )
      .where(eq(users.id, user.id));
    await this.audit(user.id, isLocked ? 'security_password.locked' : 'security_password.failure', meta);
    throw new DomainError('CAPTCHA_FAILED');
  }

  /** Accept a TOTP code once: its step must be newer than the last accepted one (atomic). */
  private async acceptTotp(user: UserRow, code: string, secret: string | null = user.mfaSecret): Promise<boolean> {
    if (!secret || !/^\d{6}$/.test(code)) return false;
    const step = matchTotpStep(this.totpSecrets.open(secret), code);
    if (step === null) return false;
    const updated = await this.db
      .update(users)
      .set({ mfaLastStep: step })
      .where(and(eq(users.id, user.id), or(isNull(users.mfaLastStep), lt(users.mfaLastStep, step))))
      .returning({ id: users.id });
    return updated.length === 1;
  }

  private async useRecoveryCode(userId: string, recoveryCode: string): Promise<boolean> {
    const normalized = recoveryCode.replace('-', '').toUpperCase();
    const used = await this.db
      .update(mfaRecoveryCodes)
      .set({ usedAt: new Date() })
      .where(
        and(eq(mfaRecoveryCodes.userId, userId), eq(mfaRecoveryCodes.codeHash, keyedHash(this.options.secret, `recovery:${userId}`, normalized)), isNull(mfaRecoveryCodes.usedAt)),
      )
      .returning({ userId: mfaRecoveryCodes.userId });
    return used.length === 1;
  }

  // ------------------------------------------------------------------ authenticator

  /** `GET user/config/mfa/key`: a pending secret with its otpauth URI and QR code, unless one is bound. */
  async mfaKey(userId: string): Promise<MfaKeyContent> {
    const user = await this.requireUser(userId);
    if (user.mfaSecret) return { isBound: true, secret: null, otpauthUri: null, qrDataUrl: null };
    // Authenticator seeds are stored sealed (AES-256-GCM); only this answer shows the plain seed.
    const secret = user.mfaPendingSecret ? this.totpSecrets.open(user.mfaPendingSecret) : newTotpSecret();
    if (!user.mfaPendingSecret) await this.db.update(users).set({ mfaPendingSecret: this.totpSecrets.seal(secret) }).where(eq(users.id, user.id));
    const otpauthUri = totpUri(secret, user.email, this.options.totpIssuer ?? 'Meridian');
    return { isBound: false, secret, otpauthUri, qrDataUrl: await QRCode.toDataURL(otpauthUri, { margin: 1, width: 200 }) };
  }

  /**
   * `POST user/config/mfa/key`: bind the pending secret (its current code + an MFA_ADD email code),
   * turn the authenticator on for login and trade, return 10 recovery codes (shown once), hold
   * withdrawals 24 hours.
   */
  async bindMfa(userId: string, body: { mfaCode: string; emailCaptcha: string; securityPassword?: string }, meta: RequestMeta): Promise<{ recoveryCodes: string[] }> {
    const user = await this.requireUser(userId);
    if (user.mfaSecret) throw new DomainError('CONFLICT');
    if (!user.mfaPendingSecret) throw new FieldError('mfaCode', 'validation.mfaNotBound');
    const needsSecurity = user.isTradeSecurityOn && user.securityPasswordHash !== null;
    if (needsSecurity && !body.securityPassword) throw new FieldError('securityPassword', 'validation.securityPassword');
    await this.codes.check('email', user.email, 'MFA_ADD', body.emailCaptcha, { consume: false, userId: user.id });
    if (needsSecurity) await this.checkSecurityPassword(user, body.securityPassword ?? '', meta);
    if (!(await this.acceptTotp(user, body.mfaCode, user.mfaPendingSecret))) throw new DomainError('CAPTCHA_FAILED');
    await this.codes.check('email', user.email, 'MFA_ADD', body.emailCaptcha, { consume: true, userId: user.id });
    const recoveryCodes = Array.from({ length: IDENTITY_RULES.recoveryCodeCount }, () => newRecoveryCode());
    await this.db.transaction(async (tx) => {
      await tx
        .update(users)
        .set({ mfaSecret: user.mfaPendingSecret, mfaPendingSecret: null, isLoginMfaOn: true, isTradeMfaOn: true })
        .where(eq(users.id, user.id));
      await tx.delete(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, user.id));
      await tx.insert(mfaRecoveryCodes).values(
        recoveryCodes.map((code) => ({ userId: user.id, codeHash: keyedHash(this.options.secret, `recovery:${user.id}`, code.replace('-', '')) })),
      );
    });
    await this.extendWithdrawalHold(user.id, hours(IDENTITY_RULES.holdAfterFactorChangeHours));
    await this.audit(user.id, 'mfa.bound', meta);
    return { recoveryCodes };
  }

  /** `DELETE user/config/mfa/key`: unbind with the authenticator (or a recovery code) and an MFA_REMOVE email code. */
  async unbindMfa(
    userId: string,
    body: { mfaCode?: string; recoveryCode?: string; emailCaptcha: string; securityPassword?: string },
    meta: RequestMeta,
  ): Promise<void> {
    const user = await this.requireUser(userId);
    if (!user.mfaSecret) throw new FieldError('mfaCode', 'validation.mfaNotBound');
    const needsSecurity = user.isTradeSecurityOn && user.securityPasswordHash !== null;
    if (needsSecurity && !body.securityPassword) throw new FieldError('securityPassword', 'validation.securityPassword');
    await this.codes.check('email', user.email, 'MFA_REMOVE', body.emailCaptcha, { consume: false, userId: user.id });
    if (needsSecurity) await this.checkSecurityPassword(user, body.securityPassword ?? '', meta);
    const isRight = body.recoveryCode ? await this.useRecoveryCode(user.id, body.recoveryCode) : await this.acceptTotp(user, body.mfaCode ?? '');
    if (!isRight) throw new DomainError('CAPTCHA_FAILED');
    await this.codes.check('email', user.email, 'MFA_REMOVE', body.emailCaptcha, { consume: true, userId: user.id });
    const keepsTradeFactor = user.isTradeEmailOn || (user.isTradeSecurityOn && user.securityPasswordHash !== null);
    await this.db.transaction(async (tx) => {
      await tx
        .update(users)
        .set({ mfaSecret: null, mfaPendingSecret: null, mfaLastStep: null, isLoginMfaOn: false, isTradeMfaOn: false, ...(keepsTradeFactor ? {} : { isTradeEmailOn: true }) })
        .where(eq(users.id, user.id));
      await tx.delete(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, user.id));
    });
    await this.extendWithdrawalHold(user.id, hours(IDENTITY_RULES.holdAfterFactorChangeHours));
    await this.audit(user.id, 'mfa.unbound', meta, { byRecoveryCode: body.recoveryCode !== undefined });
  }

  // ------------------------------------------------------------------ trading password

  /**
   * `POST user/security/password`: set or change the 6-digit security code. Needs an email code
   * (SECURITY_PASSWORD), the authenticator when bound, and the current code when changing it; a
   * change holds withdrawals 24 hours. The first one turns the trade factor on.
   */
  async setSecurityPassword(
    userId: string,
    body: { newSecurityPassword: string; emailCaptcha: string; mfaCode?: string; securityPassword?: string },
    meta: RequestMeta,
  ): Promise<SecurityConfig> {
    const user = await this.requireUser(userId);
    const isChange = user.securityPasswordHash !== null;
    await this.verifyFactors(user, 'SECURITY_PASSWORD', body, { email: true, mfa: user.mfaSecret !== null, security: isChange }, meta);
    const securityPasswordHash = await hashSecret(body.newSecurityPassword);
    await this.db
      .update(users)
      .set({ securityPasswordHash, securityFailedCount: 0, securityLockedUntil: null, ...(isChange ? {} : { isTradeSecurityOn: true }) })
      .where(eq(users.id, user.id));
    if (isChange) await this.extendWithdrawalHold(user.id, hours(IDENTITY_RULES.holdAfterFactorChangeHours));
    await this.audit(user.id, isChange ? 'security_password.changed' : 'security_password.set', meta);
    return this.securityConfig(user.id);
  }

  // ------------------------------------------------------------------ mobile

  /** `user/mobile/captcha`: send an SMS code (MOBILE_BIND) to the E.164 number. */
  async sendMobileCode(userId: string, body: { mobileCountry: string; mobile: string }, meta: RequestMeta): Promise<SendCodeContent> {
    const user = await this.requireUser(userId);
    const number = toE164(body.mobileCountry, body.mobile);
    if (!number) throw new FieldError('mobile', 'validation.mobile');
    const code = await this.codes.issue('sms', number.e164, 'MOBILE_BIND', user.id);
    const { text } = renderMail('smsCode', user.locale === 'zh-HK' ? 'zh-HK' : 'en-US', { code, event: 'MOBILE_BIND' });
    await this.options.sms.send({ to: number.e164, text, tag: 'MOBILE_BIND' });
    await this.audit(user.id, 'code.sent', meta, { event: 'MOBILE_BIND', channel: 'sms' });
    return { maskedTo: `${number.e164.slice(0, 4)}****${number.e164.slice(-2)}`, resendAfterSeconds: 59 };
  }

  /** `user/web/mobile/bind`: bind the number (SMS code + email code + trade factors); a change holds withdrawals 72 hours. */
  async bindMobile(
    userId: string,
    body: { mobileCountry: string; mobile: string; smsCaptcha: string } & SensitiveFactors,
    meta: RequestMeta,
  ): Promise<SecurityConfig> {
    const user = await this.requireUser(userId);
    const number = toE164(body.mobileCountry, body.mobile);
    if (!number) throw new FieldError('mobile', 'validation.mobile');
    await this.codes.check('sms', number.e164, 'MOBILE_BIND', body.smsCaptcha, { consume: false, userId: user.id });
    await this.verifyFactors(user, 'MOBILE_BIND', body, { ...this.tradeFactors(user), email: true }, meta);
    await this.codes.check('sms', number.e164, 'MOBILE_BIND', body.smsCaptcha, { consume: true, userId: user.id });
    const isChange = user.mobile !== null;
    await this.db.update(users).set({ mobile: number.e164, mobileCountry: body.mobileCountry, mobileCode: number.dialCode }).where(eq(users.id, user.id));
    if (isChange) await this.extendWithdrawalHold(user.id, hours(IDENTITY_RULES.holdAfterContactChangeHours));
    await this.audit(user.id, isChange ? 'mobile.changed' : 'mobile.bound', meta);
    return this.securityConfig(user.id);
  }

  // ------------------------------------------------------------------ email change

  /**
   * `user/email/captcha`: send an EMAIL_CHANGE code to the address the user wants to change to, so
   * the change proves they own it. Normalises the address like registration (trimmed, lower-cased).
   * @throws FieldError `email` when it is the current address or another account uses it.
   */
  async sendNewEmailCode(userId: string, body: { email: string }, meta: RequestMeta): Promise<SendCodeContent> {
    const user = await this.requireUser(userId);
    const email = body.email.trim().toLowerCase();
    await this.assertEmailAvailable(user, email);
    const code = await this.codes.issue('email', email, 'EMAIL_CHANGE', user.id);
    const resendAfterSeconds = await this.mailCode(email, user.locale, code, 'EMAIL_CHANGE');
    await this.audit(user.id, 'code.sent', meta, { event: 'EMAIL_CHANGE', to: 'new_email', isDelivered: resendAfterSeconds > 0 });
    return { maskedTo: maskEmail(email), resendAfterSeconds };
  }

  /**
   * `user/email/change`: change the account's email. Needs the code sent to the new address and the
   * user's current factors: an EMAIL_CHANGE code sent to the current address (always) plus the trade
   * factors. No code is used up unless every check passed. Then every other session is revoked,
   * withdrawals are held 72 hours, the audit row `email.changed` is written and the old address is
   * told.
   * @throws FieldError `email` (taken or unchanged) or naming a missing factor (120); DomainError
   * CAPTCHA_FAILED (119) for a wrong code or factor.
   */
  async changeEmail(
    userId: string,
    currentSessionId: string,
    body: { email: string; newEmailCaptcha: string } & SensitiveFactors,
    meta: RequestMeta,
  ): Promise<void> {
    const user = await this.requireUser(userId);
    const email = body.email.trim().toLowerCase();
    await this.assertEmailAvailable(user, email);
    const required = { ...this.tradeFactors(user), email: true };
    // Missing factors answer 120 before any code is looked at (the guard's order).
    if (!body.emailCaptcha) throw new FieldError('emailCaptcha', 'validation.emailCode');
    if (required.security && !body.securityPassword) throw new FieldError('securityPassword', 'validation.securityPassword');
    if (required.mfa && !body.mfaCode) throw new FieldError('mfaCode', 'validation.mfaCode');
    // The new address's code first, without using it: a wrong one costs none of the other factors.
    await this.codes.check('email', email, 'EMAIL_CHANGE', body.newEmailCaptcha, { consume: false, userId: user.id });
    await this.verifyFactors(user, 'EMAIL_CHANGE', body, required, meta);
    await this.codes.check('email', email, 'EMAIL_CHANGE', body.newEmailCaptcha, { consume: true, userId: user.id });
    try {
      await this.db.transaction(async (tx) => {
        const updated = await tx
          .update(users)
          .set({ email })
          .where(and(eq(users.id, user.id), eq(users.email, user.email), eq(users.status, 'active')))
          .returning({ id: users.id });
        if (updated.length === 0) throw new DomainError('CONFLICT');
        await tx
          .update(sessions)
          .set({ revokedAt: new Date() })
          .where(and(eq(sessions.userId, user.id), isNull(sessions.revokedAt), sql`${sessions.id} <> ${currentSessionId}`));
        await tx.delete(loginThrottles).where(eq(loginThrottles.email, user.email));
      });
    } catch (error) {
      // Another account took the address between the check and the update (unique index).
      if (isSqlState(error, SQLSTATE_UNIQUE_VIOLATION)) throw new FieldError('email', 'validation.emailTaken');
      throw error;
    }
    this.forgetSessions(user.id);
    await this.extendWithdrawalHold(user.id, hours(IDENTITY_RULES.holdAfterContactChangeHours));
    await this.audit(user.id, 'email.changed', meta, { from: maskEmail(user.email), to: maskEmail(email) });
    await this.mail(user.email, user.locale, 'emailChanged', { newEmail: maskEmail(email) });
  }

  /** @throws FieldError `email` when it is the user's current address or any account (even closed) has it. */
  private async assertEmailAvailable(user: UserRow, email: string): Promise<void> {
    if (email === user.email) throw new FieldError('email', 'validation.sameEmail');
    const [taken] = await this.db.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);
    if (taken) throw new FieldError('email', 'validation.emailTaken');
  }

  // ------------------------------------------------------------------ holds and KYC

  /** Until when withdrawals are held after a security change, or null when they are not. */
  async withdrawalHoldUntil(userId: string): Promise<Date | null> {
    const [row] = await this.db.select({ until: users.withdrawalHoldUntil }).from(users).where(eq(users.id, userId)).limit(1);
    return row?.until && row.until.getTime() > Date.now() ? row.until : null;
  }

  /** @throws DomainError SECURITY_HOLD (106) with `{until}` (YYYY-MM-DD HH:mm UTC) while a hold runs. */
  async assertWithdrawalAllowed(userId: string): Promise<void> {
    const until = await this.withdrawalHoldUntil(userId);
    if (until) throw new DomainError('SECURITY_HOLD', { until: `${until.toISOString().slice(0, 16).replace('T', ' ')} UTC` }, { until: until.toISOString() });
  }

  private async extendWithdrawalHold(userId: string, durationMs: number): Promise<void> {
    const until = new Date(Date.now() + durationMs);
    await this.db
      .update(users)
      .set({ withdrawalHoldUntil: sql`GREATEST(COALESCE(${users.withdrawalHoldUntil}, ${until}), ${until})` })
      .where(eq(users.id, userId));
  }

  /** Record the user's verified level (0 none, 1 basic, 2 investor, 3 qualified investor); for the KYC module, seeds and tests. */
  async setKycLevel(userId: string, level: 0 | 1 | 2 | 3): Promise<void> {
    await this.db.update(users).set({ kycLevel: level }).where(eq(users.id, userId));
    this.forgetSessions(userId);
  }

  // ------------------------------------------------------------------ account closure

  /**
   * `user/cancel`: close the account (the route's guard has checked the trade factors). Refused with
   * ACCOUNT_NOT_EMPTY (111) while any registered checker reports holdings. Otherwise the row stays
   * (ledger history refers to it) with personal data removed, sessions revoked and codes deleted.
   */
  async closeAccount(userId: string, meta: RequestMeta): Promise<void> {
    const user = await this.requireUser(userId);
    await this.assertClosable(user.id, meta.locale);
    const locale = user.locale === 'zh-HK' ? 'zh-HK' : 'en-US';
    await this.mail(user.email, locale, 'accountClosed', {});
    await this.db.transaction(async (tx) => {
      await tx
        .update(users)
        .set({
          status: 'closed',
          email: `closed+${user.id}@deleted.invalid`,
          passwordHash: null,
          mobile: null,
          mobileCountry: null,
          mobileCode: null,
          mfaSecret: null,
          mfaPendingSecret: null,
          securityPasswordHash: null,
          closedAt: new Date(),
        })
        .where(eq(users.id, user.id));
      await tx.update(sessions).set({ revokedAt: new Date(), ip: null, userAgent: null }).where(eq(sessions.userId, user.id));
      await tx.delete(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, user.id));
      await tx.delete(loginThrottles).where(eq(loginThrottles.email, user.email));
    });
    this.forgetSessions(user.id);
    await this.codes.forgetAddress(user.email);
    await this.audit(user.id, 'account.closed', meta);
  }

  /**
   * @throws DomainError ACCOUNT_NOT_EMPTY (111) with `content.reasons` while any checker reports
   * holdings. The route calls it before the security check too, so a refusal costs no code.
   */
  async assertClosable(userId: string, locale: Locale): Promise<void> {
    const reasons = (await Promise.all(this.holdingsCheckers.map((checker) => checker.reasonsToRefuseClosure(userId, locale)))).flat();
    if (reasons.length > 0) throw new DomainError('ACCOUNT_NOT_EMPTY', { reasons: reasons.join(', ') }, { reasons });
  }

  /**
   * Housekeeping, hourly: drop used-up human-check nonces past their expiry, flow tickets and codes
   * older than two days (the daily send cap looks back one day), and stale login counters.
   */
  jobs(): JobDefinition[] {
    return [
      {
        name: 'identity.purge-expired',
        periodMs: 3_600_000,
        run: async ({ tx, now }) => {
          const twoDaysAgo = new Date(now.getTime() - 2 * 86_400_000);
          await tx.delete(humanCheckUses).where(lt(humanCheckUses.expiresAt, now));
          await tx.delete(flowTickets).where(lt(flowTickets.expiresAt, twoDaysAgo));
          await tx.delete(verificationCodes).where(lt(verificationCodes.createdAt, twoDaysAgo));
          await tx
            .delete(loginThrottles)
            .where(and(lt(loginThrottles.windowStartedAt, twoDaysAgo), or(isNull(loginThrottles.lockedUntil), lt(loginThrottles.lockedUntil, now))));
        },
      },
      {
        name: 'identity.audit-retention',
        periodMs: 86_400_000,
        run: async ({ tx, now }) => {
          await purgeExpiredAudit(tx, now);
        },
      },
    ];
  }

  // ------------------------------------------------------------------ helpers

  private async findActiveByEmail(email: string): Promise<UserRow | undefined> {
    const [row] = await this.db
      .select()
      .from(users)
      .where(and(eq(users.email, email), eq(users.status, 'active')))
      .limit(1);
    return row;
  }

  private async requireUser(userId: string): Promise<UserRow> {
    const [row] = await this.db
      .select()
      .from(users)
      .where(and(eq(users.id, userId), eq(users.status, 'active')))
      .limit(1);
    if (!row) throw new DomainError('LOGIN_EXPIRED');
    return row;
  }

  /**
   * Who messages go to (for the notices module): each active user's language and email, in one
   * query through `db` (default this service's handle); a user who does not exist or is closed is
   * absent from the map. At most 500 ids.
   */
  async recipientsOf(userIds: readonly string[], db: DbOrTx = this.db): Promise<Map<string, { locale: Locale; email: string | null }>> {
    if (userIds.length === 0) return new Map();
    if (userIds.length > 500) throw new RangeError('at most 500 recipients per look-up');
    const rows = await db
      .select({ id: users.id, locale: users.locale, email: users.email })
      .from(users)
      .where(and(inArray(users.id, [...userIds]), eq(users.status, 'active')));
    return new Map(rows.map((row) => [row.id, { locale: row.locale === 'zh-HK' ? 'zh-HK' : 'en-US', email: row.email }]));
  }

  /** The active account with this email, if any (for seeds and tests). */
  async findUserIdByEmail(email: string): Promise<string | null> {
    return (await this.findActiveByEmail(email.trim().toLowerCase()))?.id ?? null;
  }

  /**
   * Create an active account directly (demo seed and tests; the public path is `register`).
   * Idempotent on the email: returns the existing id.
   */
  async createAccount(email: string, password: string, locale: Locale = 'en-US'): Promise<string> {
    const normalized = email.trim().toLowerCase();
    const existing = await this.findUserIdByEmail(normalized);
    if (existing) return existing;
    const [row] = await this.db
      .insert(users)
      .values({ email: normalized, passwordHash: await hashSecret(password), locale })
      .returning({ id: users.id });
    if (!row) throw new Error('user insert returned nothing');
    return row.id;
  }

  /**
   * Queue a mail in `tx` (sent after the commit, see `mail`).
   * @returns the outbox row id to deliver, or null when there is no transport (the row is the delivery).
   */
  private async queueMail(tx: DbOrTx, to: string, locale: string, kind: MailKind, params: Record<string, string> & { event?: CaptchaEvent }, tag?: string): Promise<number | null> {
    const { subject, text } = renderMail(kind, locale === 'zh-HK' ? 'zh-HK' : 'en-US', params);
    const queued = await this.options.outbox.enqueue({ to, subject, text, tag: tag ?? kind }, tx);
    return queued.isPending ? queued.id : null;
  }

  /**
   * Queue a mail and try it once at once. Never fails for a mail outage (the delivery job retries).
   * @returns whether it was delivered (always true without a transport).
   */
  private async mail(to: string, locale: string, kind: MailKind, params: Record<string, string> & { event?: CaptchaEvent }, tag?: string): Promise<boolean> {
    const id = await this.queueMail(this.db, to, locale, kind, params, tag);
    return id === null ? true : this.options.outbox.deliver(id);
  }

  /**
   * Mail a code just issued for (`to`, `event`) (docs/identity.md "Mail delivery"): when the first,
   * immediate attempt fails the code stays valid and queued for retries, but its resend cooldown is
   * released, so the user may ask again at once.
   * @returns the resend wait for the answer: `CODE_RESEND_AFTER_SEC`, or 0 when the mail is not sent yet.
   */
  private async mailCode(to: string, locale: string, code: string, event: CaptchaEvent): Promise<number> {
    const isSent = await this.mail(to, locale, 'code', { code, event }, event);
    if (isSent) return CODE_RESEND_AFTER_SEC;
    await this.codes.releaseCooldown('email', to, event);
    return 0;
  }

  /** Append an audit row (time, IP, user agent, kind, detail), then tell the security-event listeners. */
  async audit(userId: string | null, kind: string, meta: RequestMeta, detail: Record<string, unknown> = {}): Promise<void> {
    await this.db.insert(auditEvents).values({ userId, kind, ip: meta.ip, userAgent: meta.userAgent?.slice(0, 400) ?? null, detail });
    const isSecurityEvent = SECURITY_EVENT_KINDS.has(kind) && (kind !== 'login.success' || detail.isNewDevice === true);
    if (!userId || !isSecurityEvent) return;
    const device = describeDevice(meta.userAgent ?? null);
    for (const listener of this.securityEventListeners) {
      await listener({ userId, kind, device, ip: meta.ip }).catch((error: unknown) =>
        this.options.log?.('security event listener failed', { kind, err: error instanceof Error ? error.message : String(error) }),
      );
    }
  }
}

const BASE32_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** `XXXXX-XXXXX` from the base32 alphabet, drawn from the CSPRNG (50 bits of entropy). */
function newRecoveryCode(): string {
  const chars = Array.from({ length: 10 }, () => BASE32_ALPHABET[randomInt(0, 32)]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

/** A short device description from a user agent: browser on system. */
export function describeDevice(userAgent: string | null): string {
  if (!userAgent) return 'Unknown device';
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /Chrome\//.test(userAgent)
      ? 'Chrome'
      : /Firefox\//.test(userAgent)
        ? 'Firefox'
        : /Safari\//.test(userAgent)
          ? 'Safari'
          : userAgent.split(/[\s/]/)[0] || 'Browser';
  const system = /iPhone|iPad/.test(userAgent)
    ? 'iOS'
    : /Android/.test(userAgent)
      ? 'Android'
      : /Windows/.test(userAgent)
        ? 'Windows'
        : /Mac OS X/.test(userAgent)
          ? 'macOS'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : 'Unknown system';
  return `${browser} on ${system}`;
}
