/**
 * Changes to an open account's standing: email change (proved on the new address), withdrawal
 * holds, the KYC level, and closure with the other modules' holdings checkers.
 */
import type { SendCodeContent } from '@meridian/contracts/identity';
import { maskEmail } from '@meridian/contracts/identity';
import type { Locale } from '@meridian/contracts/locale';
import type { SensitiveFactors } from '@meridian/contracts/security';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { isSqlState, SQLSTATE_UNIQUE_VIOLATION } from '../../platform/db/sql-state.ts';
import { DomainError, FieldError } from '../../platform/http/errors.ts';
import { audit } from './identity.audit.ts';
import { tradeFactors, verifyFactors } from './identity.factors.ts';
import {
  extendWithdrawalHold,
  forgetSessions,
  hours,
  type IdentityContext,
  mail,
  mailCode,
  requireUser,
  type UserRow,
} from './identity.internal.ts';
import { loginThrottles, mfaRecoveryCodes, passkeyCredentials, sessions, users } from './identity.tables.ts';
import { type AccountHoldingsChecker, IDENTITY_RULES, type RequestMeta } from './identity.types.ts';
import { issueFreezeLink } from './identity.freeze-links.ts';

/** @throws FieldError `email` when it is the user's current address or any account (even closed) has it. */
async function assertEmailAvailable(ctx: IdentityContext, user: UserRow, email: string): Promise<void> {
  if (email === user.email) throw new FieldError('email', 'validation.sameEmail');
  const [taken] = await ctx.db.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);
  if (taken) throw new FieldError('email', 'validation.emailTaken');
}

/** The account-change part of the identity service: email change, holds, KYC level, closure. */
export function createAccountChangeService(ctx: IdentityContext) {
  /** Until when withdrawals are held after a security change, or null when they are not. */
  const withdrawalHoldUntil = async (userId: string): Promise<Date | null> => {
    const [row] = await ctx.db
      .select({ until: users.withdrawalHoldUntil })
      .from(users)
      .where(eq(users.id, userId))
      .limit(1);
    return row?.until && row.until.getTime() > ctx.clock.now().getTime() ? row.until : null;
  };

  /**
   * @throws DomainError ACCOUNT_NOT_EMPTY (111) with `content.reasons` while any checker reports
   * holdings. The route calls it before the security check too, so a refusal costs no code.
   */
  const assertClosable = async (userId: string, locale: Locale): Promise<void> => {
    const reasons = (
      await Promise.all(ctx.holdingsCheckers.map((checker) => checker.reasonsToRefuseClosure(userId, locale)))
    ).flat();
    if (reasons.length > 0) throw new DomainError('ACCOUNT_NOT_EMPTY', { reasons: reasons.join(', ') }, { reasons });
  };

  return {
    /**
     * `user/email/captcha`: send an EMAIL_CHANGE code to the address the user wants to change to, so
     * the change proves they own it. Normalises the address like registration (trimmed, lower-cased).
     * @throws FieldError `email` when it is the current address or another account uses it.
     */
    async sendNewEmailCode(userId: string, body: { email: string }, meta: RequestMeta): Promise<SendCodeContent> {
      const user = await requireUser(ctx, userId);
      const email = body.email.trim().toLowerCase();
      await assertEmailAvailable(ctx, user, email);
      const code = await ctx.codes.issue('email', email, 'EMAIL_CHANGE', user.id);
      const resendAfterSeconds = await mailCode(ctx, email, user.locale, code, 'EMAIL_CHANGE');
      await audit(ctx, user.id, 'code.sent', meta, {
        event: 'EMAIL_CHANGE',
        to: 'new_email',
        isDelivered: resendAfterSeconds > 0,
      });
      return { maskedTo: maskEmail(email), resendAfterSeconds };
    },

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
      const user = await requireUser(ctx, userId);
      const email = body.email.trim().toLowerCase();
      await assertEmailAvailable(ctx, user, email);
      const required = { ...tradeFactors(user), email: true };
      // Missing factors answer 120 before any code is looked at (the guard's order).
      if (!body.emailCaptcha) throw new FieldError('emailCaptcha', 'validation.emailCode');
      if (required.security && !body.securityPassword)
        throw new FieldError('securityPassword', 'validation.securityPassword');
      if (required.mfa && !body.mfaCode) throw new FieldError('mfaCode', 'validation.mfaCode');
      // The new address's code first, without using it: a wrong one costs none of the other factors.
      await ctx.codes.check('email', email, 'EMAIL_CHANGE', body.newEmailCaptcha, { consume: false, userId: user.id });
      await verifyFactors(ctx, user, 'EMAIL_CHANGE', body, required, meta);
      await ctx.codes.check('email', email, 'EMAIL_CHANGE', body.newEmailCaptcha, { consume: true, userId: user.id });
      try {
        await ctx.db.transaction(async (tx) => {
          const updated = await tx
            .update(users)
            .set({ email })
            .where(and(eq(users.id, user.id), eq(users.email, user.email), eq(users.status, 'active')))
            .returning({ id: users.id });
          if (updated.length === 0) throw new DomainError('CONFLICT');
          await tx
            .update(sessions)
            .set({ revokedAt: ctx.clock.now() })
            .where(
              and(eq(sessions.userId, user.id), isNull(sessions.revokedAt), sql`${sessions.id} <> ${currentSessionId}`),
            );
          await tx.delete(loginThrottles).where(eq(loginThrottles.email, user.email));
        });
      } catch (error) {
        // Another account took the address between the check and the update (unique index).
        if (isSqlState(error, SQLSTATE_UNIQUE_VIOLATION)) throw new FieldError('email', 'validation.emailTaken');
        throw error;
      }
      forgetSessions(ctx, user.id);
      await extendWithdrawalHold(ctx, user.id, hours(IDENTITY_RULES.holdAfterContactChangeHours));
      await audit(ctx, user.id, 'email.changed', meta, { from: maskEmail(user.email), to: maskEmail(email) });
      await mail(ctx, user.email, user.locale, 'emailChanged', {
        newEmail: maskEmail(email),
        freezeUrl: await issueFreezeLink(ctx, user.id),
      });
    },

    withdrawalHoldUntil,

    /** @throws DomainError SECURITY_HOLD (106) with `{until}` (YYYY-MM-DD HH:mm UTC) while a hold runs. */
    async assertWithdrawalAllowed(userId: string): Promise<void> {
      const until = await withdrawalHoldUntil(userId);
      if (until)
        throw new DomainError(
          'SECURITY_HOLD',
          { until: `${until.toISOString().slice(0, 16).replace('T', ' ')} UTC` },
          { until: until.toISOString() },
        );
    },

    /**
     * Record the user's verified level (0 none, 1 basic, 2 investor, 3 qualified investor)
     * on `db` (the caller's transaction, e.g. a scheduled job's, which on the embedded database
     * holds its only connection); for the KYC module, seeds and tests.
     */
    async setKycLevel(userId: string, level: 0 | 1 | 2 | 3, db: DbOrTx = ctx.db): Promise<void> {
      await db.update(users).set({ kycLevel: level }).where(eq(users.id, userId));
      forgetSessions(ctx, userId);
    },

    /** The user's verified level (0–3, as `setKycLevel` recorded it), read on `db`; 0 for an unknown user. */
    async kycLevelOf(userId: string, db: DbOrTx = ctx.db): Promise<number> {
      const [row] = await db.select({ kycLevel: users.kycLevel }).from(users).where(eq(users.id, userId));
      return row?.kycLevel ?? 0;
    },

    /** Register a module that can forbid account closure (ledger, funds, loans, cards). */
    addHoldingsChecker(checker: AccountHoldingsChecker): void {
      ctx.holdingsCheckers.push(checker);
    },

    assertClosable,

    /**
     * `user/cancel`: close the account (the route's guard has checked the trade factors). Refused with
     * ACCOUNT_NOT_EMPTY (111) while any registered checker reports holdings. Otherwise the row stays
     * (ledger history refers to it) with personal data removed, sessions revoked and codes deleted.
     */
    async closeAccount(userId: string, meta: RequestMeta): Promise<void> {
      const user = await requireUser(ctx, userId);
      await assertClosable(user.id, meta.locale);
      const locale = user.locale === 'zh-HK' ? 'zh-HK' : 'en-US';
      await mail(ctx, user.email, locale, 'accountClosed', {});
      await ctx.db.transaction(async (tx) => {
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
            closedAt: ctx.clock.now(),
          })
          .where(eq(users.id, user.id));
        await tx
          .update(sessions)
          .set({ revokedAt: ctx.clock.now(), ip: null, userAgent: null })
          .where(eq(sessions.userId, user.id));
        await tx.delete(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, user.id));
        await tx.delete(passkeyCredentials).where(eq(passkeyCredentials.userId, user.id));
        await tx.update(users).set({ passkeyCount: 0 }).where(eq(users.id, user.id));
        await tx.delete(loginThrottles).where(eq(loginThrottles.email, user.email));
      });
      forgetSessions(ctx, user.id);
      await ctx.codes.forgetAddress(user.email);
      await audit(ctx, user.id, 'account.closed', meta);
    },
  };
}
