import { z } from 'zod';
import { uuidString } from './limits.ts';

/**
 * Events an email code can be requested for. A
 * sensitive route declares its event; the code it accepts must have been sent for that event.
 */
export const CAPTCHA_EVENTS = [
  'WITHDRAW_ADDRESS_ADD',
  'PURCHASE',
  'MFA_ADD',
  'REDEEM',
  'CONFIG_SWITCH',
  'SECURITY_PASSWORD',
  'FORGET_PASSWORD',
  'EMAIL_REGISTER',
  'LOGIN_CHECK',
  'LOAN_BORROW',
  'LOAN_REPAY',
  'LOAN_ADJUST',
  'WITHDRAW',
  'ACCOUNT_CANCEL',
  'MFA_REMOVE',
  'MOBILE_BIND',
  'PASSWORD_CHANGE',
  'EMAIL_CHANGE',
  'BANK_ACCOUNT_ADD',
  'BANK_ACCOUNT_DELETE',
  'TRUST_FUND',
  'TRUST_WITHDRAW',
  'CARD_APPLY',
  'CARD_TOPUP',
  'CARD_REVEAL',
  'CARD_PIN',
  'API_KEY_CREATE',
  'PASSKEY_ADD',
  'PASSKEY_REMOVE',
] as const;
export type CaptchaEvent = (typeof CAPTCHA_EVENTS)[number];
export const captchaEventSchema = z.enum(CAPTCHA_EVENTS);

/** Six digits (a verification code). */
export const sixDigitCodeSchema = z
  .string()
  .max(6, { abort: true })
  .regex(/^\d{6}$/, { error: 'validation.code6' });

const base64Url = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[\w-]*={0,2}$/, { error: 'validation.passkey' });

/**
 * What `@simplewebauthn/browser`'s `startAuthentication()` returns (WebAuthn `PublicKeyCredential`
 * as JSON, base64url fields). Sizes are capped; the server checks the rest (signature, challenge,
 * origin, RP ID, user verification, counter).
 */
export const authenticationResponseSchema = z.looseObject({
  id: base64Url(1366),
  rawId: base64Url(1366),
  type: z.literal('public-key', { error: 'validation.passkey' }),
  response: z.looseObject({
    clientDataJSON: base64Url(8192),
    authenticatorData: base64Url(8192),
    signature: base64Url(2048),
    userHandle: base64Url(256).optional(),
  }),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
});

/**
 * A passkey assertion sent as a factor: the id of the challenge the server handed out
 * (`POST user/passkeys/assertion/options`, single use, 5 minutes) and the browser's answer to it.
 */
export const passkeyAssertionSchema = z.strictObject({
  challengeId: uuidString({ error: 'validation.passkey' }),
  response: authenticationResponseSchema,
});
export type PasskeyAssertion = z.input<typeof passkeyAssertionSchema>;

/**
 * The verification factors a sensitive action may carry: the server
 * demands exactly those the user's trade configuration requires.
 * Routes that declare `sensitiveAction` extend their body schema with this.
 */
export const sensitiveFactorsSchema = z.object({
  mfaCode: sixDigitCodeSchema.optional(),
  emailCaptcha: sixDigitCodeSchema.optional(),
  securityPassword: sixDigitCodeSchema.optional(),
  /** A passkey assertion in place of `mfaCode`: it satisfies the `mfa` factor. */
  passkey: passkeyAssertionSchema.optional(),
});
export type SensitiveFactors = z.infer<typeof sensitiveFactorsSchema>;
