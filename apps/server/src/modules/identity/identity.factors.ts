/**
 * Second factors, checked: the sensitive-action guard, the email code + security code +
 * authenticator checks it and the signed-in flows share, TOTP and recovery-code acceptance, and the
 * user's security configuration (`user/config`, `user/config/switch`). Binding factors lives in
 * `identity.factor-settings.ts`.
 */
import type { SecurityConfig } from '@meridian/contracts/identity';
import type { CaptchaEvent, SensitiveFactors } from '@meridian/contracts/security';
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { DomainError, FieldError } from '../../platform/http/errors.ts';
import { keyedHash } from '../../platform/security/one-time-codes.ts';
import { verifySecret } from '../../platform/security/passwords.ts';
import { matchTotpStep } from '../../platform/security/totp.ts';
import { audit } from './identity.audit.ts';
import {
  extendWithdrawalHold,
  hasMfaMethod,
  hours,
  type IdentityContext,
  minutes,
  requireUser,
  type UserRow,
} from './identity.internal.ts';
import { acceptPasskeyFactor } from './identity.passkeys.ts';
import { mfaRecoveryCodes, users } from './identity.tables.ts';
import { IDENTITY_RULES, type RequestMeta } from './identity.types.ts';

/** Which factors a check demands. */
export interface RequiredFactors {
  email: boolean;
  mfa: boolean;
  security: boolean;
}

const flag = (value: boolean) => (value ? 1 : 0);

/** `user/config` of a user row (its security factors and holds, docs/identity.md) at `now` (the app's clock). */
export function configOf(user: UserRow, now: Date): SecurityConfig {
  const hold =
    user.withdrawalHoldUntil && user.withdrawalHoldUntil.getTime() > now.getTime()
      ? user.withdrawalHoldUntil.toISOString()
      : null;
  return {
    security: flag(user.securityPasswordHash !== null),
    mfa: [...(user.mfaSecret ? ['google'] : []), ...(user.passkeyCount > 0 ? ['passkey'] : [])],
    login: { email: flag(user.isLoginEmailOn), mfa: flag(user.isLoginMfaOn && hasMfaMethod(user)) },
    trade: {
      email: flag(user.isTradeEmailOn),
      mfa: flag(user.isTradeMfaOn && hasMfaMethod(user)),
      security: flag(user.isTradeSecurityOn && user.securityPasswordHash !== null),
    },
    mobile: flag(user.mobile !== null),
    withdrawalHoldUntil: hold,
  };
}

/** `user/config` of an active user. @throws DomainError LOGIN_EXPIRED when not active. */
export async function securityConfigOf(ctx: IdentityContext, userId: string): Promise<SecurityConfig> {
  return configOf(await requireUser(ctx, userId), ctx.clock.now());
}

/** The factors the user's trade configuration requires for sensitive actions. */
/** Events whose check always demands the authenticator code (and so a bound authenticator). */
const EVENTS_ALWAYS_NEEDING_MFA: ReadonlySet<CaptchaEvent> = new Set<CaptchaEvent>(['API_KEY_CREATE']);

export function tradeFactors(user: UserRow): RequiredFactors {
  return {
    email: user.isTradeEmailOn,
    mfa: user.isTradeMfaOn && hasMfaMethod(user),
    security: user.isTradeSecurityOn && user.securityPasswordHash !== null,
  };
}

/**
 * Check `factors` against `required`: the email code first (without using it), then the security
 * code, then the authenticator (its step is recorded), and only then is the email code used up,
 * so a wrong second factor does not cost the user their email code. Takes the arguments of
 * `checkFactors`: (ctx, user, event, factors, required, meta).
 * @throws FieldError naming a missing factor (120); DomainError CAPTCHA_FAILED (119) for a wrong
 * one; ACCOUNT_LOCKED (103) while the security code is locked.
 */
export async function verifyFactors(...args: Parameters<typeof checkFactors>): Promise<void> {
  const [ctx] = args;
  const codeId = await checkFactors(...args);
  if (codeId !== undefined) await ctx.codes.consume(ctx.db, codeId);
}

/**
 * The checks of `verifyFactors` without using up the email code.
 * @returns the id of the accepted email code, to use up; undefined when no email code is required.
 */
async function checkFactors(
  ctx: IdentityContext,
  user: UserRow,
  event: CaptchaEvent,
  factors: SensitiveFactors,
  required: RequiredFactors,
  meta: RequestMeta,
): Promise<string | undefined> {
  const needsMfa = required.mfa && hasMfaMethod(user);
  const needsSecurity = required.security && user.securityPasswordHash !== null;
  if (required.email && !factors.emailCaptcha) throw new FieldError('emailCaptcha', 'validation.emailCode');
  if (needsSecurity && !factors.securityPassword)
    throw new FieldError('securityPassword', 'validation.securityPassword');
  if (needsMfa && !factors.mfaCode && !factors.passkey) throw new FieldError('mfaCode', 'validation.mfaCode');
  const codeId = required.email
    ? await ctx.codes.check('email', user.email, event, factors.emailCaptcha ?? '', { consume: false, userId: user.id })
    : undefined;
  if (needsSecurity) await checkSecurityPassword(ctx, user, factors.securityPassword ?? '', meta);
  if (needsMfa && factors.passkey && !factors.mfaCode) {
    // A passkey stands for the authenticator code; its own errors (260–263) say what failed.
    try {
      await acceptPasskeyFactor(ctx, user, factors.passkey, meta);
    } catch (error) {
      await audit(ctx, user.id, 'mfa.failure', meta, { event, method: 'passkey' });
      throw error;
    }
  } else if (needsMfa && !(await acceptTotp(ctx, user, factors.mfaCode ?? ''))) {
    await audit(ctx, user.id, 'mfa.failure', meta, { event });
    throw new DomainError('CAPTCHA_FAILED');
  }
  return codeId;
}

/**
 * Check the 6-digit security code; 5 wrong in a row lock it for 30 minutes.
 * @throws DomainError CAPTCHA_FAILED (119) when wrong; ACCOUNT_LOCKED (103) while locked.
 */
export async function checkSecurityPassword(
  ctx: IdentityContext,
  user: UserRow,
  securityPassword: string,
  meta: RequestMeta,
): Promise<void> {
  if (user.securityLockedUntil && user.securityLockedUntil.getTime() > ctx.clock.now().getTime())
    throw new DomainError('ACCOUNT_LOCKED');
  if (await verifySecret(user.securityPasswordHash, securityPassword)) {
    if (user.securityFailedCount > 0)
      await ctx.db.update(users).set({ securityFailedCount: 0 }).where(eq(users.id, user.id));
    return;
  }
  const failedCount = user.securityFailedCount + 1;
  const isLocked = failedCount >= IDENTITY_RULES.securityPasswordFailuresMax;
  await ctx.db
    .update(users)
    .set(
      isLocked
        ? {
            securityFailedCount: 0,
            securityLockedUntil: new Date(
              ctx.clock.now().getTime() + minutes(IDENTITY_RULES.securityPasswordLockoutMinutes),
            ),
          }
        : { securityFailedCount: sql`${users.securityFailedCount} + 1` },
    )
    .where(eq(users.id, user.id));
  await audit(ctx, user.id, isLocked ? 'security_password.locked' : 'security_password.failure', meta);
  throw new DomainError('CAPTCHA_FAILED');
}

/** Accept a TOTP code once: its step must be newer than the last accepted one (atomic). */
export async function acceptTotp(
  ctx: IdentityContext,
  user: UserRow,
  code: string,
  secret: string | null = user.mfaSecret,
): Promise<boolean> {
  if (!secret || !/^\d{6}$/.test(code)) return false;
  const step = matchTotpStep(ctx.totpSecrets.open(secret), code, ctx.clock.now().getTime());
  if (step === null) return false;
  const updated = await ctx.db
    .update(users)
    .set({ mfaLastStep: step })
    .where(and(eq(users.id, user.id), or(isNull(users.mfaLastStep), lt(users.mfaLastStep, step))))
    .returning({ id: users.id });
  return updated.length === 1;
}

/** The keyed hash a recovery code is stored as (dash removed, upper case), bound to the user. */
export function recoveryCodeHash(ctx: IdentityContext, userId: string, normalizedCode: string): string {
  return keyedHash(ctx.options.secret, `recovery:${userId}`, normalizedCode);
}

/** Use up one of the user's recovery codes. @returns false when it is unknown or already used. */
export async function useRecoveryCode(ctx: IdentityContext, userId: string, recoveryCode: string): Promise<boolean> {
  const normalized = recoveryCode.replace('-', '').toUpperCase();
  const used = await ctx.db
    .update(mfaRecoveryCodes)
    .set({ usedAt: ctx.clock.now() })
    .where(
      and(
        eq(mfaRecoveryCodes.userId, userId),
        eq(mfaRecoveryCodes.codeHash, recoveryCodeHash(ctx, userId, normalized)),
        isNull(mfaRecoveryCodes.usedAt),
      ),
    )
    .returning({ userId: mfaRecoveryCodes.userId });
  return used.length === 1;
}

/** The factor-check part of the identity service: the sensitive-action guard and the security configuration. */
export function createFactorService(ctx: IdentityContext) {
  return {
    /**
     * The sensitive-action check of `event` (the route's `sensitiveAction`): `factors` against the
     * user's trade configuration. Checks every factor now — a wrong one answers 119 and is counted
     * here — but uses up nothing: it returns the step that uses up the email code, which the caller
     * runs last, in the transaction of the action it authorises.
     * @returns `consume(db?)`: uses up the email code on `db` (default: this service's database).
     * @throws DomainError CAPTCHA_FAILED (119), ACCOUNT_LOCKED; FieldError for a missing factor (120).
     */
    async verifySensitiveAction(
      userId: string,
      event: CaptchaEvent,
      factors: SensitiveFactors,
      meta: RequestMeta,
    ): Promise<(db?: DbOrTx) => Promise<void>> {
      const user = await requireUser(ctx, userId);
      // Creating a developer API key always needs the authenticator, whatever the trade configuration says.
      const isMfaAlways = EVENTS_ALWAYS_NEEDING_MFA.has(event);
      if (isMfaAlways && !user.mfaSecret) throw new FieldError('mfaCode', 'validation.mfaNotBound');
      const required = isMfaAlways ? { ...tradeFactors(user), mfa: true } : tradeFactors(user);
      const codeId = await checkFactors(ctx, user, event, factors, required, meta);
      await audit(ctx, user.id, 'sensitive_action.verified', meta, { event });
      return async (db = ctx.db) => {
        if (codeId !== undefined) await ctx.codes.consume(db, codeId);
      };
    },

    /** `user/config`. */
    securityConfig: (userId: string): Promise<SecurityConfig> => securityConfigOf(ctx, userId),

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
      const user = await requireUser(ctx, userId);
      if (body.isEnabled && body.factor === 'mfa' && !hasMfaMethod(user))
        throw new FieldError('factor', 'validation.mfaNotBound');
      if (body.isEnabled && body.factor === 'security' && !user.securityPasswordHash)
        throw new FieldError('factor', 'validation.securityPasswordNotSet');
      const next = {
        email: body.scope === 'login' ? user.isLoginEmailOn : user.isTradeEmailOn,
        mfa: body.scope === 'login' ? user.isLoginMfaOn && hasMfaMethod(user) : user.isTradeMfaOn && hasMfaMethod(user),
        security: body.scope === 'trade' && user.isTradeSecurityOn && user.securityPasswordHash !== null,
      };
      const current = { ...next };
      next[body.factor] = body.isEnabled;
      if (body.scope === 'trade' && !next.email && !next.mfa && !next.security)
        throw new FieldError('isEnabled', 'validation.bindingRequired');
      await verifyFactors(ctx, user, 'CONFIG_SWITCH', body, { ...current, email: true }, meta);
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
      await ctx.db.update(users).set(changes).where(eq(users.id, user.id));
      if (body.scope === 'trade' && !body.isEnabled)
        await extendWithdrawalHold(ctx, user.id, hours(IDENTITY_RULES.holdAfterFactorChangeHours));
      await audit(ctx, user.id, 'config.switched', meta, {
        scope: body.scope,
        factor: body.factor,
        isEnabled: body.isEnabled,
      });
      return securityConfigOf(ctx, user.id);
    },
  };
}
