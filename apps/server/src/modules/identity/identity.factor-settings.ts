/**
 * Binding second factors: the authenticator (key, bind with recovery codes, unbind), the 6-digit
 * security code (trading PIN) and the mobile number with its SMS code. Each change is checked with
 * the factors of `identity.factors.ts` and may hold withdrawals.
 */
import { randomInt } from 'node:crypto';
import type { MfaKeyContent, SecurityConfig, SendCodeContent } from '@meridian/contracts/identity';
import type { SensitiveFactors } from '@meridian/contracts/security';
import { eq } from 'drizzle-orm';
import QRCode from 'qrcode';
import { DomainError, FieldError } from '../../platform/http/errors.ts';
import { hashSecret } from '../../platform/security/passwords.ts';
import { newTotpSecret, totpUri } from '../../platform/security/totp.ts';
import { audit } from './identity.audit.ts';
import { toE164 } from './identity.countries.ts';
import {
  acceptTotp,
  checkSecurityPassword,
  recoveryCodeHash,
  securityConfigOf,
  tradeFactors,
  useRecoveryCode,
  verifyFactors,
} from './identity.factors.ts';
import { extendWithdrawalHold, hours, type IdentityContext, requireUser } from './identity.internal.ts';
import { renderMail } from './identity.mails.ts';
import { mfaRecoveryCodes, users } from './identity.tables.ts';
import { IDENTITY_RULES, type RequestMeta } from './identity.types.ts';

const BASE32_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** `XXXXX-XXXXX` from the base32 alphabet, drawn from the CSPRNG (50 bits of entropy). */
function newRecoveryCode(): string {
  const chars = Array.from({ length: 10 }, () => BASE32_ALPHABET[randomInt(0, 32)]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

/** The factor-binding part of the identity service: authenticator, security code, mobile. */
export function createFactorSettingsService(ctx: IdentityContext) {
  return {
    /** `GET user/config/mfa/key`: a pending secret with its otpauth URI and QR code, unless one is bound. */
    async mfaKey(userId: string): Promise<MfaKeyContent> {
      const user = await requireUser(ctx, userId);
      if (user.mfaSecret) return { isBound: true, secret: null, otpauthUri: null, qrDataUrl: null };
      // Authenticator seeds are stored sealed (AES-256-GCM); only this answer shows the plain seed.
      const secret = user.mfaPendingSecret ? ctx.totpSecrets.open(user.mfaPendingSecret) : newTotpSecret();
      if (!user.mfaPendingSecret)
        await ctx.db
          .update(users)
          .set({ mfaPendingSecret: ctx.totpSecrets.seal(secret) })
          .where(eq(users.id, user.id));
      const otpauthUri = totpUri(secret, user.email, ctx.options.totpIssuer ?? 'Meridian');
      return {
        isBound: false,
        secret,
        otpauthUri,
        qrDataUrl: await QRCode.toDataURL(otpauthUri, { margin: 1, width: 200 }),
      };
    },

    /**
     * `POST user/config/mfa/key`: bind the pending secret (its current code + an MFA_ADD email code),
     * turn the authenticator on for login and trade, return 10 recovery codes (shown once), hold
     * withdrawals 24 hours.
     */
    async bindMfa(
      userId: string,
      body: { mfaCode: string; emailCaptcha: string; securityPassword?: string },
      meta: RequestMeta,
    ): Promise<{ recoveryCodes: string[] }> {
      const user = await requireUser(ctx, userId);
      if (user.mfaSecret) throw new DomainError('CONFLICT');
      if (!user.mfaPendingSecret) throw new FieldError('mfaCode', 'validation.mfaNotBound');
      const needsSecurity = user.isTradeSecurityOn && user.securityPasswordHash !== null;
      if (needsSecurity && !body.securityPassword)
        throw new FieldError('securityPassword', 'validation.securityPassword');
      await ctx.codes.check('email', user.email, 'MFA_ADD', body.emailCaptcha, { consume: false, userId: user.id });
      if (needsSecurity) await checkSecurityPassword(ctx, user, body.securityPassword ?? '', meta);
      if (!(await acceptTotp(ctx, user, body.mfaCode, user.mfaPendingSecret))) throw new DomainError('CAPTCHA_FAILED');
      await ctx.codes.check('email', user.email, 'MFA_ADD', body.emailCaptcha, { consume: true, userId: user.id });
      const recoveryCodes = Array.from({ length: IDENTITY_RULES.recoveryCodeCount }, () => newRecoveryCode());
      await ctx.db.transaction(async (tx) => {
        await tx
          .update(users)
          .set({ mfaSecret: user.mfaPendingSecret, mfaPendingSecret: null, isLoginMfaOn: true, isTradeMfaOn: true })
          .where(eq(users.id, user.id));
        await tx.delete(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, user.id));
        await tx.insert(mfaRecoveryCodes).values(
          recoveryCodes.map((code) => ({
            userId: user.id,
            codeHash: recoveryCodeHash(ctx, user.id, code.replace('-', '')),
          })),
        );
      });
      await extendWithdrawalHold(ctx, user.id, hours(IDENTITY_RULES.holdAfterFactorChangeHours));
      await audit(ctx, user.id, 'mfa.bound', meta);
      return { recoveryCodes };
    },

    /** `DELETE user/config/mfa/key`: unbind with the authenticator (or a recovery code) and an MFA_REMOVE email code. */
    async unbindMfa(
      userId: string,
      body: { mfaCode?: string; recoveryCode?: string; emailCaptcha: string; securityPassword?: string },
      meta: RequestMeta,
    ): Promise<void> {
      const user = await requireUser(ctx, userId);
      if (!user.mfaSecret) throw new FieldError('mfaCode', 'validation.mfaNotBound');
      const needsSecurity = user.isTradeSecurityOn && user.securityPasswordHash !== null;
      if (needsSecurity && !body.securityPassword)
        throw new FieldError('securityPassword', 'validation.securityPassword');
      await ctx.codes.check('email', user.email, 'MFA_REMOVE', body.emailCaptcha, { consume: false, userId: user.id });
      if (needsSecurity) await checkSecurityPassword(ctx, user, body.securityPassword ?? '', meta);
      const isRight = body.recoveryCode
        ? await useRecoveryCode(ctx, user.id, body.recoveryCode)
        : await acceptTotp(ctx, user, body.mfaCode ?? '');
      if (!isRight) throw new DomainError('CAPTCHA_FAILED');
      await ctx.codes.check('email', user.email, 'MFA_REMOVE', body.emailCaptcha, { consume: true, userId: user.id });
      const keepsTradeFactor = user.isTradeEmailOn || (user.isTradeSecurityOn && user.securityPasswordHash !== null);
      await ctx.db.transaction(async (tx) => {
        await tx
          .update(users)
          .set({
            mfaSecret: null,
            mfaPendingSecret: null,
            mfaLastStep: null,
            isLoginMfaOn: false,
            isTradeMfaOn: false,
            ...(keepsTradeFactor ? {} : { isTradeEmailOn: true }),
          })
          .where(eq(users.id, user.id));
        await tx.delete(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, user.id));
      });
      await extendWithdrawalHold(ctx, user.id, hours(IDENTITY_RULES.holdAfterFactorChangeHours));
      await audit(ctx, user.id, 'mfa.unbound', meta, { byRecoveryCode: body.recoveryCode !== undefined });
    },

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
      const user = await requireUser(ctx, userId);
      const isChange = user.securityPasswordHash !== null;
      await verifyFactors(
        ctx,
        user,
        'SECURITY_PASSWORD',
        body,
        { email: true, mfa: user.mfaSecret !== null, security: isChange },
        meta,
      );
      const securityPasswordHash = await hashSecret(body.newSecurityPassword);
      await ctx.db
        .update(users)
        .set({
          securityPasswordHash,
          securityFailedCount: 0,
          securityLockedUntil: null,
          ...(isChange ? {} : { isTradeSecurityOn: true }),
        })
        .where(eq(users.id, user.id));
      if (isChange) await extendWithdrawalHold(ctx, user.id, hours(IDENTITY_RULES.holdAfterFactorChangeHours));
      await audit(ctx, user.id, isChange ? 'security_password.changed' : 'security_password.set', meta);
      return securityConfigOf(ctx, user.id);
    },

    /** `user/mobile/captcha`: send an SMS code (MOBILE_BIND) to the E.164 number. */
    async sendMobileCode(
      userId: string,
      body: { mobileCountry: string; mobile: string },
      meta: RequestMeta,
    ): Promise<SendCodeContent> {
      const user = await requireUser(ctx, userId);
      const number = toE164(body.mobileCountry, body.mobile);
      if (!number) throw new FieldError('mobile', 'validation.mobile');
      const code = await ctx.codes.issue('sms', number.e164, 'MOBILE_BIND', user.id);
      const { text } = renderMail('smsCode', user.locale === 'zh-HK' ? 'zh-HK' : 'en-US', {
        code,
        event: 'MOBILE_BIND',
      });
      await ctx.options.sms.send({ to: number.e164, text, tag: 'MOBILE_BIND' });
      await audit(ctx, user.id, 'code.sent', meta, { event: 'MOBILE_BIND', channel: 'sms' });
      return { maskedTo: `${number.e164.slice(0, 4)}****${number.e164.slice(-2)}`, resendAfterSeconds: 59 };
    },

    /** `user/web/mobile/bind`: bind the number (SMS code + email code + trade factors); a change holds withdrawals 72 hours. */
    async bindMobile(
      userId: string,
      body: { mobileCountry: string; mobile: string; smsCaptcha: string } & SensitiveFactors,
      meta: RequestMeta,
    ): Promise<SecurityConfig> {
      const user = await requireUser(ctx, userId);
      const number = toE164(body.mobileCountry, body.mobile);
      if (!number) throw new FieldError('mobile', 'validation.mobile');
      await ctx.codes.check('sms', number.e164, 'MOBILE_BIND', body.smsCaptcha, { consume: false, userId: user.id });
      await verifyFactors(ctx, user, 'MOBILE_BIND', body, { ...tradeFactors(user), email: true }, meta);
      await ctx.codes.check('sms', number.e164, 'MOBILE_BIND', body.smsCaptcha, { consume: true, userId: user.id });
      const isChange = user.mobile !== null;
      await ctx.db
        .update(users)
        .set({ mobile: number.e164, mobileCountry: body.mobileCountry, mobileCode: number.dialCode })
        .where(eq(users.id, user.id));
      if (isChange) await extendWithdrawalHold(ctx, user.id, hours(IDENTITY_RULES.holdAfterContactChangeHours));
      await audit(ctx, user.id, isChange ? 'mobile.changed' : 'mobile.bound', meta);
      return securityConfigOf(ctx, user.id);
    },
  };
}
