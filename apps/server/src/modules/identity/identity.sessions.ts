/**
 * Signing in and staying signed in: the human check, `user/login` with its lockout and optional
 * second factors, opening, resolving (with this process's cache), listing and revoking sessions,
 * and logout.
 */
import type { SessionItem } from '@meridian/contracts/identity';
import { type Locale, toLocale } from '@meridian/contracts/locale';
import type { PasskeyAssertion } from '@meridian/contracts/security';
import { and, desc, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { DomainError, FieldError } from '../../platform/http/errors.ts';
import { createHumanCheckChallenge, verifyHumanCheckToken } from '../../platform/security/human-check.ts';
import { randomToken } from '../../platform/security/one-time-codes.ts';
import { verifySecret } from '../../platform/security/passwords.ts';
import { audit } from './identity.audit.ts';
import { acceptTotp, useRecoveryCode } from './identity.factors.ts';
import { acceptPasskeyFactor, acceptPasskeySignIn } from './identity.passkeys.ts';
import {
  describeDevice,
  findActiveByEmail,
  forgetSessions,
  hasMfaMethod,
  hours,
  type IdentityContext,
  minutes,
  queueMail,
  sha256,
  type UserRow,
} from './identity.internal.ts';
import type { CachedSession } from './identity.session-cache.ts';
import { humanCheckUses, loginThrottles, sessions, users } from './identity.tables.ts';
import { IDENTITY_RULES, type LoginResult, type NewSession, type RequestMeta } from './identity.types.ts';
import { issueFreezeLink } from './identity.freeze-links.ts';

/** @throws DomainError CAPTCHA_FAILED (119) when the token is malformed, wrong, expired or reused. */
export async function verifyHumanCheck(ctx: IdentityContext, token: string, meta: RequestMeta): Promise<void> {
  const failure = await verifyHumanCheckToken(ctx.humanCheck, token, async (nonce, expiresAt) => {
    const inserted = await ctx.db
      .insert(humanCheckUses)
      .values({ nonce, expiresAt })
      .onConflictDoNothing()
      .returning({ nonce: humanCheckUses.nonce });
    return inserted.length === 1;
  });
  if (failure) {
    await audit(ctx, null, 'human_check.failure', meta, { reason: failure });
    throw new DomainError('CAPTCHA_FAILED');
  }
}

/** @throws DomainError ACCOUNT_LOCKED (103) while the address is locked after failed sign-ins. */
async function assertNotLocked(ctx: IdentityContext, email: string): Promise<void> {
  const [row] = await ctx.db.select().from(loginThrottles).where(eq(loginThrottles.email, email)).limit(1);
  if (row?.lockedUntil && row.lockedUntil.getTime() > ctx.clock.now().getTime())
    throw new DomainError('ACCOUNT_LOCKED');
}

/** Count a failed sign-in for the address (existing or not); the fifth in 15 minutes locks it. */
async function recordLoginFailure(
  ctx: IdentityContext,
  email: string,
  userId: string | null,
  meta: RequestMeta,
  reason: string,
): Promise<void> {
  const now = ctx.clock.now();
  const windowStart = new Date(now.getTime() - minutes(IDENTITY_RULES.loginFailureWindowMinutes));
  const lockUntil = new Date(now.getTime() + minutes(IDENTITY_RULES.loginLockoutMinutes));
  const [row] = await ctx.db
    .insert(loginThrottles)
    .values({ email, failedCount: 1, windowStartedAt: now })
    .onConflictDoUpdate({
      target: loginThrottles.email,
      set: {
        failedCount: sql`CASE WHEN ${loginThrottles.windowStartedAt} < ${windowStart} THEN 1 ELSE ${loginThrottles.failedCount} + 1 END`,
        windowStartedAt: sql`CASE WHEN ${loginThrottles.windowStartedAt} < ${windowStart} THEN ${now.toISOString()}::timestamptz ELSE ${loginThrottles.windowStartedAt} END`,
      },
    })
    .returning();
  if (row && row.failedCount >= IDENTITY_RULES.loginFailuresMax) {
    await ctx.db
      .update(loginThrottles)
      .set({ lockedUntil: lockUntil, failedCount: 0, windowStartedAt: now })
      .where(eq(loginThrottles.email, email));
    await audit(ctx, userId, 'login.locked', meta, { until: lockUntil.toISOString() });
  }
  await audit(ctx, userId, 'login.failure', meta, { reason });
}

/** A device that never signed in to this account before; the very first sign-in is not "new". */
async function isNewDevice(ctx: IdentityContext, userId: string, deviceId: string | null): Promise<boolean> {
  const [any] = await ctx.db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, userId)).limit(1);
  if (!any) return false;
  if (!deviceId) return true;
  const [row] = await ctx.db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), eq(sessions.deviceId, deviceId)))
    .limit(1);
  return !row;
}

/** Insert a session row in `tx` and return its new cookie token. */
async function openSession(ctx: IdentityContext, userId: string, meta: RequestMeta, tx: DbOrTx): Promise<NewSession> {
  const token = randomToken();
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + hours(IDENTITY_RULES.sessionAbsoluteHours));
  const [row] = await tx
    .insert(sessions)
    .values({
      userId,
      // Set from the app's clock, not the column's default: the idle limit compares them with it.
      createdAt: now,
      lastSeenAt: now,
      tokenHash: sha256(token),
      deviceId: meta.deviceId,
      ip: meta.ip,
      userAgent: meta.userAgent?.slice(0, 400) ?? null,
      expiresAt,
    })
    .returning({ id: sessions.id });
  if (!row) throw new Error('session insert returned nothing');
  return { token, sessionId: row.id, expiresAt };
}

/** Store `locale` as the user's language and in the cached session. */
async function followLocale(
  ctx: IdentityContext,
  tokenHash: string,
  session: CachedSession,
  locale: Locale,
): Promise<void> {
  await ctx.db
    .update(users)
    .set({ locale })
    .where(and(eq(users.id, session.userId), ne(users.locale, locale)));
  ctx.sessionCache.set(tokenHash, { ...session, locale });
}

/**
 * Open a session for `user`, whose sign-in passed (password and factors, or a passkey): the login
 * counter is dropped, and the session and its new-device mail commit together or not at all (issue
 * 14 item 6); the mail is sent after the commit, and a mail outage only leaves it queued.
 */
async function signIn(
  ctx: IdentityContext,
  user: UserRow,
  meta: RequestMeta,
  method: 'password' | 'passkey',
): Promise<LoginResult> {
  await ctx.db.delete(loginThrottles).where(eq(loginThrottles.email, user.email));
  const isNew = await isNewDevice(ctx, user.id, meta.deviceId);
  const { session, mailId } = await ctx.db.transaction(async (tx) => {
    const opened = await openSession(ctx, user.id, meta, tx);
    await tx.update(users).set({ locale: meta.locale }).where(eq(users.id, user.id));
    const queued = isNew
      ? await queueMail(ctx, tx, user.email, meta.locale, 'newDevice', {
          time: ctx.clock.now().toISOString().slice(0, 16).replace('T', ' '),
          ip: meta.ip ?? '-',
          device: describeDevice(meta.userAgent),
          freezeUrl: await issueFreezeLink(ctx, user.id, tx),
        })
      : null;
    return { session: opened, mailId: queued };
  });
  await audit(ctx, user.id, 'login.success', meta, { sessionId: session.sessionId, isNewDevice: isNew, method });
  if (mailId !== null) await ctx.options.outbox.deliver(mailId);
  return { content: { accountId: user.id, email: false, mfa: false, security: false, ticket: null }, session };
}

/** The session part of the identity service: human check, login, sessions, logout. */
export function createSessionService(ctx: IdentityContext) {
  return {
    /** A new ALTCHA challenge for the widget. */
    createHumanCheckChallenge: () => createHumanCheckChallenge(ctx.humanCheck),

    /** @throws DomainError CAPTCHA_FAILED (119) when the token is malformed, wrong, expired or reused. */
    verifyHumanCheck: (token: string, meta: RequestMeta): Promise<void> => verifyHumanCheck(ctx, token, meta),

    /**
     * `user/login`. Unknown email and wrong password answer alike (LOGIN_FAILED 110)
     * after the same argon2 work; 5 failures in 15 minutes lock the address for 15 minutes (103).
     */
    async login(
      body: {
        email: string;
        password: string;
        token?: string;
        ticket?: string;
        emailCaptcha?: string;
        mfaCode?: string;
        recoveryCode?: string;
        passkey?: PasskeyAssertion;
      },
      meta: RequestMeta,
    ): Promise<LoginResult> {
      const { email } = body;
      await assertNotLocked(ctx, email);
      if (body.ticket) await ctx.codes.checkTicket(body.ticket, 'login', email);
      else await verifyHumanCheck(ctx, body.token ?? '', meta);

      const user = await findActiveByEmail(ctx, email);
      const isPasswordRight = await verifySecret(user?.passwordHash ?? null, body.password);
      if (!user || !isPasswordRight) {
        await recordLoginFailure(ctx, email, user?.id ?? null, meta, 'password');
        throw new DomainError('LOGIN_FAILED');
      }
      const needsEmail = user.isLoginEmailOn;
      const needsMfa = user.isLoginMfaOn && hasMfaMethod(user);
      if ((needsEmail || needsMfa) && !body.ticket) {
        const ticket = await ctx.codes.issueTicket('login', email, user.id);
        await audit(ctx, user.id, 'login.factors_requested', meta, { email: needsEmail, mfa: needsMfa });
        return {
          content: {
            accountId: null,
            email: needsEmail,
            mfa: needsMfa,
            security: false,
            ticket,
            passkey: needsMfa && user.passkeyCount > 0,
            authenticator: needsMfa && user.mfaSecret !== null,
          },
          session: null,
        };
      }
      if (needsEmail && !body.emailCaptcha) throw new FieldError('emailCaptcha', 'validation.emailCode');
      if (needsMfa && !body.mfaCode && !body.recoveryCode && !body.passkey)
        throw new FieldError('mfaCode', 'validation.mfaCode');
      if (needsEmail)
        await ctx.codes.check('email', email, 'LOGIN_CHECK', body.emailCaptcha ?? '', {
          consume: false,
          userId: user.id,
        });
      if (needsMfa) {
        if (body.passkey && !body.mfaCode && !body.recoveryCode) {
          try {
            await acceptPasskeyFactor(ctx, user, body.passkey, meta);
          } catch (error) {
            await recordLoginFailure(ctx, email, user.id, meta, 'passkey');
            throw error;
          }
        }
        const isMfaRight = body.recoveryCode
          ? await useRecoveryCode(ctx, user.id, body.recoveryCode)
          : body.mfaCode
            ? await acceptTotp(ctx, user, body.mfaCode)
            : true;
        if (!isMfaRight) {
          await recordLoginFailure(ctx, email, user.id, meta, 'mfa');
          throw new DomainError('CAPTCHA_FAILED');
        }
      }
      if (needsEmail)
        await ctx.codes.check('email', email, 'LOGIN_CHECK', body.emailCaptcha ?? '', {
          consume: true,
          userId: user.id,
        });
      if (body.ticket) await ctx.codes.consumeTicket(body.ticket);
      return signIn(ctx, user, meta, 'password');
    },

    /**
     * `POST user/passkeys/login`: sign in with a passkey, under the password sign-in's rules: the
     * account must be active (a closed one answers LOGIN_FAILED 110), a locked address answers 103,
     * a failed passkey counts toward the lock, and the session, the new-device mail and the audit
     * are those of `login`. A passkey with user verification is both factors (possession and PIN or
     * biometric), so no Verify step follows.
     * @throws DomainError PASSKEY_CHALLENGE_EXPIRED, PASSKEY_UNKNOWN, PASSKEY_FAILED,
     * PASSKEY_COUNTER_REGRESSED, ACCOUNT_LOCKED, LOGIN_FAILED.
     */
    async passkeyLogin(body: { challengeId: string; response: unknown }, meta: RequestMeta): Promise<LoginResult> {
      let signingIn: UserRow | undefined;
      await acceptPasskeySignIn(ctx, body, meta, async (credential) => {
        const [user] = await ctx.db.select().from(users).where(eq(users.id, credential.userId)).limit(1);
        if (!user || user.status !== 'active') {
          await audit(ctx, credential.userId, 'login.failure', meta, { reason: 'passkey_account_inactive' });
          throw new DomainError('LOGIN_FAILED');
        }
        await assertNotLocked(ctx, user.email);
        signingIn = user;
      }).catch(async (error: unknown) => {
        if (signingIn && error instanceof DomainError && error.code !== 'ACCOUNT_LOCKED')
          await recordLoginFailure(ctx, signingIn.email, signingIn.id, meta, 'passkey');
        throw error;
      });
      if (!signingIn) throw new DomainError('LOGIN_FAILED');
      return signIn(ctx, signingIn, meta, 'passkey');
    },

    // The session and its new-device mail commit together or not at all; the mail
    // is sent after the commit, and a mail outage only leaves it queued for the delivery job.

    /**
     * The live session of a cookie token: not revoked, before its absolute expiry, used within the idle
     * limit, of an active user. Refreshes the last-seen time at most once a minute. Reuses what this
     * process resolved in the last `SESSION_CACHE_TTL_MS` unless `fresh` (sensitive actions read the
     * database): within the touch interval the idle limit cannot have passed, and revocations drop
     * cached entries at once (`forgetSessions`, fed by the `identity_sessions` notifications).
     *
     * `locale` is the language the caller uses now (the `User-Lang` header, when sent): when
     * it differs from the stored one, the user's language becomes it, so messages and mails written
     * later — a swap's "Exchange completed", a withdrawal's notice — come in the language the user
     * switched to rather than the one of their last sign-in.
     * @returns null for an unknown, revoked, expired or idle session, or an account not active.
     */
    async resolveSession(
      token: string,
      options: { fresh?: boolean; locale?: Locale } = {},
    ): Promise<{ userId: string; sessionId: string; kycLevel: number } | null> {
      if (!/^[\w-]{20,100}$/.test(token)) return null;
      const now = ctx.clock.now().getTime();
      const tokenHash = sha256(token);
      const cached = options.fresh ? undefined : ctx.sessionCache.get(tokenHash);
      if (cached && cached.expiresAtMs > now && now - cached.lastSeenAtMs <= IDENTITY_RULES.sessionTouchIntervalMs) {
        if (options.locale && options.locale !== cached.locale)
          await followLocale(ctx, tokenHash, cached, options.locale);
        return { userId: cached.userId, sessionId: cached.sessionId, kycLevel: cached.kycLevel };
      }
      const [row] = await ctx.db
        .select({
          id: sessions.id,
          userId: sessions.userId,
          lastSeenAt: sessions.lastSeenAt,
          expiresAt: sessions.expiresAt,
          revokedAt: sessions.revokedAt,
          status: users.status,
          kycLevel: users.kycLevel,
          locale: users.locale,
        })
        .from(sessions)
        .innerJoin(users, eq(users.id, sessions.userId))
        .where(eq(sessions.tokenHash, tokenHash))
        .limit(1);
      if (!row || row.revokedAt || row.status !== 'active') return null;
      if (row.expiresAt.getTime() <= now || now - row.lastSeenAt.getTime() > minutes(IDENTITY_RULES.sessionIdleMinutes))
        return null;
      let lastSeenAtMs = row.lastSeenAt.getTime();
      if (now - lastSeenAtMs > IDENTITY_RULES.sessionTouchIntervalMs) {
        await ctx.db
          .update(sessions)
          .set({ lastSeenAt: new Date(now) })
          .where(eq(sessions.id, row.id));
        lastSeenAtMs = now;
      }
      const session: CachedSession = {
        userId: row.userId,
        sessionId: row.id,
        kycLevel: row.kycLevel,
        locale: toLocale(row.locale),
        expiresAtMs: row.expiresAt.getTime(),
        lastSeenAtMs,
      };
      if (options.locale && options.locale !== session.locale)
        await followLocale(ctx, tokenHash, session, options.locale);
      else ctx.sessionCache.set(tokenHash, session);
      return { userId: row.userId, sessionId: row.id, kycLevel: row.kycLevel };
    },

    /**
     * Forget this process's cached sessions of `userId` (after a revocation, a status or KYC change;
     * app.ts feeds it the `identity_sessions` notifications of every process), or all of them when
     * no user is given (the notifications may have been missed).
     */
    forgetSessions: (userId?: string): void => forgetSessions(ctx, userId),

    /** Revoke the session of a cookie token (logout). Unknown tokens are ignored. */
    async logout(token: string, meta: RequestMeta): Promise<void> {
      const revoked = await ctx.db
        .update(sessions)
        .set({ revokedAt: ctx.clock.now() })
        .where(and(eq(sessions.tokenHash, sha256(token)), isNull(sessions.revokedAt)))
        .returning({ userId: sessions.userId, id: sessions.id });
      for (const row of revoked) {
        forgetSessions(ctx, row.userId);
        await audit(ctx, row.userId, 'logout', meta, { sessionId: row.id });
      }
    },

    /** Active sessions of the user, newest first (at most 50). */
    async listSessions(userId: string, currentSessionId: string): Promise<SessionItem[]> {
      const rows = await ctx.db
        .select()
        .from(sessions)
        .where(
          and(
            eq(sessions.userId, userId),
            isNull(sessions.revokedAt),
            gt(sessions.expiresAt, ctx.clock.now()),
            gt(sessions.lastSeenAt, new Date(ctx.clock.now().getTime() - minutes(IDENTITY_RULES.sessionIdleMinutes))),
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
    },

    /** Revoke one of the user's sessions. @throws DomainError NOT_FOUND when it is not theirs or not live. */
    async revokeSession(userId: string, sessionId: string, meta: RequestMeta): Promise<void> {
      const revoked = await ctx.db
        .update(sessions)
        .set({ revokedAt: ctx.clock.now() })
        .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId), isNull(sessions.revokedAt)))
        .returning({ id: sessions.id });
      if (revoked.length === 0) throw new DomainError('NOT_FOUND');
      forgetSessions(ctx, userId);
      await audit(ctx, userId, 'session.revoked', meta, { sessionId });
    },
  };
}
