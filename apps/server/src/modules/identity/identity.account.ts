/**
 * Accounts, opened and recovered: registration, password recovery and reset, password change, the
 * email codes of those flows (`user/captcha`), the user's profile (`user/self`), and the look-ups
 * other modules, seeds and tests use. Email change, holds, KYC level and closure live in
 * `identity.account-changes.ts`.
 */
import type { EmailFlowContent, SelfContent, SendCodeContent } from '@meridian/contracts/identity';
import { maskEmail } from '@meridian/contracts/identity';
import type { Locale } from '@meridian/contracts/locale';
import type { CaptchaEvent, SensitiveFactors } from '@meridian/contracts/security';
import { and, asc, eq, gt, gte, inArray, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { pgArrayLiteral } from '../../platform/db/pg-array.ts';
import { DomainError, FieldError } from '../../platform/http/errors.ts';
import { isCommonPassword } from '../../platform/security/common-passwords.ts';
import { hashSecret, verifySecret } from '../../platform/security/passwords.ts';
import { audit } from './identity.audit.ts';
import { configOf, verifyFactors } from './identity.factors.ts';
import {
  extendWithdrawalHold,
  findActiveByEmail,
  forgetSessions,
  hours,
  type IdentityContext,
  mail,
  mailCode,
  requireUser,
} from './identity.internal.ts';
import { verifyHumanCheck } from './identity.sessions.ts';
import { loginThrottles, sessions, users } from './identity.tables.ts';
import { IDENTITY_RULES, type KycSelfStatus, type KycStatusSource, type RequestMeta } from './identity.types.ts';
import { issueFreezeLink } from './identity.freeze-links.ts';

/** Anonymous code events: the only ones a signed-out caller may ask for, each tied to its flow. */
const ANONYMOUS_EVENTS: Partial<Record<CaptchaEvent, 'login' | 'register' | 'recover'>> = {
  EMAIL_REGISTER: 'register',
  FORGET_PASSWORD: 'recover',
  LOGIN_CHECK: 'login',
};

/** @throws FieldError `password` when it is among the 100,000 most common passwords. */
function assertPasswordAllowed(password: string): void {
  if (isCommonPassword(password)) throw new FieldError('password', 'validation.passwordCommon');
}

/** The account part of the identity service: register, recover, password, profile, look-ups. */
export function createAccountService(ctx: IdentityContext) {
  /** The active account with this email, if any (for seeds and tests). */
  const findUserIdByEmail = async (email: string): Promise<string | null> =>
    (await findActiveByEmail(ctx, email.trim().toLowerCase()))?.id ?? null;

  return {
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
        await verifyHumanCheck(ctx, body.token ?? '', meta);
        const ticket = await ctx.codes.issueTicket('register', email, null);
        return { email: true, mfa: false, security: false, ticket, accountId: null };
      }
      await ctx.codes.checkTicket(body.ticket, 'register', email);
      if (body.emailCaptcha === undefined) throw new FieldError('emailCaptcha', 'validation.emailCode');
      if (body.password === undefined) {
        await ctx.codes.check('email', email, 'EMAIL_REGISTER', body.emailCaptcha, { consume: false });
        return { email: true, mfa: false, security: false, ticket: body.ticket, accountId: null };
      }
      assertPasswordAllowed(body.password);
      await ctx.codes.check('email', email, 'EMAIL_REGISTER', body.emailCaptcha, { consume: true });
      const passwordHash = await hashSecret(body.password);
      const inserted = await ctx.db
        .insert(users)
        .values({ email, passwordHash, locale: meta.locale })
        .onConflictDoNothing()
        .returning({ id: users.id });
      const created = inserted[0];
      if (!created) throw new DomainError('CONFLICT');
      await ctx.codes.consumeTicket(body.ticket);
      await audit(ctx, created.id, 'account.registered', meta);
      return { email: false, mfa: false, security: false, ticket: null, accountId: created.id };
    },

    /** `user/forgetPassword` steps 1 and 2 (Mail and Verify of Recover). Unknown addresses answer alike. */
    async forgetPassword(
      body: { email: string; token?: string; ticket?: string; emailCaptcha?: string },
      meta: RequestMeta,
    ): Promise<EmailFlowContent> {
      if (!body.ticket) {
        await verifyHumanCheck(ctx, body.token ?? '', meta);
        const ticket = await ctx.codes.issueTicket('recover', body.email, null);
        return { email: true, mfa: false, security: false, ticket, accountId: null };
      }
      await ctx.codes.checkTicket(body.ticket, 'recover', body.email);
      if (body.emailCaptcha === undefined) throw new FieldError('emailCaptcha', 'validation.emailCode');
      await ctx.codes.check('email', body.email, 'FORGET_PASSWORD', body.emailCaptcha, { consume: false });
      return { email: true, mfa: false, security: false, ticket: body.ticket, accountId: null };
    },

    /**
     * `user/resetPassword`: set a new password, revoke every session, hold withdrawals 24 hours.
     * @throws DomainError CAPTCHA_FAILED on a bad ticket or code; FieldError on a common password.
     */
    async resetPassword(
      body: { email: string; ticket: string; emailCaptcha: string; password: string },
      meta: RequestMeta,
    ): Promise<EmailFlowContent> {
      await ctx.codes.checkTicket(body.ticket, 'recover', body.email);
      assertPasswordAllowed(body.password);
      await ctx.codes.check('email', body.email, 'FORGET_PASSWORD', body.emailCaptcha, { consume: true });
      const user = await findActiveByEmail(ctx, body.email);
      if (!user) throw new DomainError('CAPTCHA_FAILED');
      const passwordHash = await hashSecret(body.password);
      await ctx.db.transaction(async (tx) => {
        await tx.update(users).set({ passwordHash }).where(eq(users.id, user.id));
        await tx
          .update(sessions)
          .set({ revokedAt: ctx.clock.now() })
          .where(and(eq(sessions.userId, user.id), isNull(sessions.revokedAt)));
        await tx.delete(loginThrottles).where(eq(loginThrottles.email, user.email));
      });
      forgetSessions(ctx, user.id);
      await extendWithdrawalHold(ctx, user.id, hours(IDENTITY_RULES.holdAfterPasswordResetHours));
      await ctx.codes.consumeTicket(body.ticket);
      await audit(ctx, user.id, 'password.reset', meta);
      await mail(ctx, user.email, user.locale, 'passwordReset', { freezeUrl: await issueFreezeLink(ctx, user.id) });
      return { email: false, mfa: false, security: false, ticket: null, accountId: null };
    },

    /**
     * Change the password while signed in: needs the old one and an email code (PASSWORD_CHANGE);
     * other sessions are revoked and withdrawals held 24 hours.
     */
    async changePassword(
      userId: string,
      currentSessionId: string,
      body: {
        oldPassword: string;
        password: string;
        emailCaptcha: string;
        mfaCode?: string;
        passkey?: SensitiveFactors['passkey'];
      },
      meta: RequestMeta,
    ): Promise<void> {
      const user = await requireUser(ctx, userId);
      if (!(await verifySecret(user.passwordHash, body.oldPassword)))
        throw new FieldError('oldPassword', 'validation.wrongPassword');
      if (body.oldPassword === body.password) throw new FieldError('password', 'validation.samePassword');
      assertPasswordAllowed(body.password);
      const required = { email: true, mfa: user.mfaSecret !== null, security: false };
      await verifyFactors(
        ctx,
        user,
        'PASSWORD_CHANGE',
        { emailCaptcha: body.emailCaptcha, mfaCode: body.mfaCode, passkey: body.passkey },
        required,
        meta,
      );
      const passwordHash = await hashSecret(body.password);
      await ctx.db.transaction(async (tx) => {
        await tx.update(users).set({ passwordHash }).where(eq(users.id, user.id));
        await tx
          .update(sessions)
          .set({ revokedAt: ctx.clock.now() })
          .where(
            and(eq(sessions.userId, user.id), isNull(sessions.revokedAt), sql`${sessions.id} <> ${currentSessionId}`),
          );
      });
      forgetSessions(ctx, user.id);
      await extendWithdrawalHold(ctx, user.id, hours(IDENTITY_RULES.holdAfterPasswordResetHours));
      await audit(ctx, user.id, 'password.changed', meta);
      await mail(ctx, user.email, user.locale, 'passwordReset', { freezeUrl: await issueFreezeLink(ctx, user.id) });
    },

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
        const user = await requireUser(ctx, auth.userId);
        const code = await ctx.codes.issue('email', user.email, body.event, user.id);
        const resendAfterSeconds = await mailCode(ctx, user.email, user.locale, code, body.event);
        await audit(ctx, user.id, 'code.sent', meta, { event: body.event, isDelivered: resendAfterSeconds > 0 });
        return { maskedTo: maskEmail(user.email), resendAfterSeconds };
      }
      const purpose = ANONYMOUS_EVENTS[body.event];
      if (!purpose) throw new DomainError('LOGIN_EXPIRED');
      if (!body.email) throw new FieldError('email', 'validation.required');
      if (!body.ticket) throw new FieldError('ticket', 'validation.humanCheck');
      const ticket = await ctx.codes.checkTicket(body.ticket, purpose, body.email);
      const user = await findActiveByEmail(ctx, body.email);
      const code = await ctx.codes.issue('email', body.email, body.event, ticket.userId);
      let resendAfterSeconds = ctx.codes.resendAfterSeconds;
      if (purpose === 'register' && user) await mail(ctx, body.email, user.locale, 'alreadyRegistered', {}, body.event);
      else if (purpose === 'register' || user)
        resendAfterSeconds = await mailCode(ctx, body.email, user?.locale ?? meta.locale, code, body.event);
      return { maskedTo: maskEmail(body.email), resendAfterSeconds };
    },

    /**
     * `user/self`: `status` and `identity.basic` from the KYC module's rows
     * (`setKycStatusSource`: 0 none, 1 Verified, 2 Under Review, 3 Failed with the reviewer's
     * message); without a source, from the level alone.
     */
    async self(userId: string): Promise<SelfContent> {
      const user = await requireUser(ctx, userId);
      const kyc: KycSelfStatus = ctx.kycStatusSource
        ? await ctx.kycStatusSource(user.id, user.kycLevel)
        : {
            user: { status: user.kycLevel >= 1 ? 1 : 0, message: '' },
            investor: { status: user.kycLevel >= 2 ? 1 : 0, message: '' },
            aml: 0,
            qualify: 0,
            basic: null,
          };
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
        status: { user: kyc.user, investor: kyc.investor, aml: kyc.aml, qualify: kyc.qualify },
        kycLevel: user.kycLevel,
        conf: configOf(user, ctx.clock.now()),
        identity: { basic: kyc.basic, investor: null },
      };
    },

    /** Let the KYC module supply `user/self`'s verification states (called once, when it is wired). */
    setKycStatusSource(source: KycStatusSource): void {
      ctx.kycStatusSource = source;
    },

    /**
     * Ids of active users after `afterId` (exclusive; from the start when null), in id order, at
     * most `limit` (≤ 500): the pages of a message to everyone (announcements of changes of terms,
     * back-office broadcasts). `filter.minKycLevel` keeps the users verified to at least that level
     * (0 none, 1 basic, 2 investor).
     */
    async activeUserIdsAfter(
      afterId: string | null,
      limit: number,
      db: DbOrTx = ctx.db,
      filter: { minKycLevel?: number } = {},
    ): Promise<string[]> {
      if (limit > 500) throw new RangeError('at most 500 users per page');
      const rows = await db
        .select({ id: users.id })
        .from(users)
        .where(
          and(
            eq(users.status, 'active'),
            afterId === null ? undefined : gt(users.id, afterId),
            filter.minKycLevel === undefined ? undefined : gte(users.kycLevel, filter.minKycLevel),
          ),
        )
        .orderBy(asc(users.id))
        .limit(limit);
      return rows.map((row) => row.id);
    },

    /**
     * Who messages go to (for the notices module): each active user's language and email, in one
     * query through `db` (default this service's handle); a user who does not exist or is closed is
     * absent from the map. At most 500 ids.
     */
    async recipientsOf(
      userIds: readonly string[],
      db: DbOrTx = ctx.db,
    ): Promise<Map<string, { locale: Locale; email: string | null }>> {
      if (userIds.length === 0) return new Map();
      if (userIds.length > 500) throw new RangeError('at most 500 recipients per look-up');
      const rows = await db
        .select({ id: users.id, locale: users.locale, email: users.email })
        .from(users)
        // One array parameter, not 500: a chain block's credit messages look up 500 readers at once.
        .where(and(sql`${users.id} = ANY(${pgArrayLiteral(userIds)}::uuid[])`, eq(users.status, 'active')));
      return new Map(
        rows.map((row) => [row.id, { locale: row.locale === 'zh-HK' ? 'zh-HK' : 'en-US', email: row.email }]),
      );
    },

    /**
     * When each of `userIds` last signed in: the newest session's creation (a session is made only by
     * a sign-in), or the account's creation when it never signed in. One grouped query; at most 500
     * users (the trust module's inactivity switch asks per batch). Closed accounts are left out.
     * @returns userId → instant.
     */
    async lastSignInAtOf(userIds: readonly string[], db: DbOrTx = ctx.db): Promise<Map<string, Date>> {
      if (userIds.length === 0) return new Map();
      if (userIds.length > 500) throw new RangeError('at most 500 users per look-up');
      const rows = await db
        .select({
          id: users.id,
          // Epoch milliseconds as text: the same on both drivers, whatever they make of a bare timestamp.
          lastSignInAtMs: sql<string>`(extract(epoch FROM greatest(${users.createdAt}, (SELECT max(${sessions.createdAt}) FROM ${sessions} WHERE ${sessions.userId} = ${users.id}))) * 1000)::bigint::text`,
        })
        .from(users)
        .where(and(inArray(users.id, [...userIds]), eq(users.status, 'active')));
      return new Map(rows.map((row) => [row.id, new Date(Number(row.lastSignInAtMs))]));
    },

    findUserIdByEmail,

    /**
     * Create an active account directly (demo seed and tests; the public path is `register`).
     * Idempotent on the email: returns the existing id.
     */
    async createAccount(email: string, password: string, locale: Locale = 'en-US'): Promise<string> {
      const normalized = email.trim().toLowerCase();
      const existing = await findUserIdByEmail(normalized);
      if (existing) return existing;
      const [row] = await ctx.db
        .insert(users)
        .values({ email: normalized, passwordHash: await hashSecret(password), locale })
        .returning({ id: users.id });
      if (!row) throw new Error('user insert returned nothing');
      return row.id;
    },
  };
}
