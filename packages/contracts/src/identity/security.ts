import { z } from 'zod';
import { SHORT_TEXT_LENGTH_MAX, uuidString } from '../limits.ts';
import { passkeyAssertionSchema, sixDigitCodeSchema } from '../security.ts';
import {
  recoveryCodeSchema,
  PASSWORD_LENGTH_MAX,
  loginPasswordSchema,
  newPasswordSchema,
  emailSchema,
} from './fields.ts';

// ---------------------------------------------------------------- security settings

export const SWITCH_SCOPES = ['login', 'trade'] as const;
export const SWITCH_FACTORS = ['email', 'mfa', 'security'] as const;

/**
 * `POST user/config/switch`: turn one factor of the login or trade configuration on or off. Carries
 * the factors the scope currently requires, and always an email code for `CONFIG_SWITCH`.
 */
export const configSwitchRequestSchema = z
  .strictObject({
    scope: z.enum(SWITCH_SCOPES),
    factor: z.enum(SWITCH_FACTORS),
    isEnabled: z.boolean(),
    emailCaptcha: sixDigitCodeSchema.optional(),
    mfaCode: sixDigitCodeSchema.optional(),
    passkey: passkeyAssertionSchema.optional(),
    securityPassword: sixDigitCodeSchema.optional(),
  })
  .superRefine((body, ctx) => {
    if (body.scope === 'login' && body.factor === 'security')
      ctx.addIssue({ code: 'custom', path: ['factor'], message: 'validation.factorScope' });
  });
export type ConfigSwitchRequest = z.input<typeof configSwitchRequestSchema>;

/** `GET user/config/mfa/key`: a new authenticator secret to scan (nothing when one is bound). */
export const mfaKeyContentSchema = z.object({
  isBound: z.boolean(),
  secret: z.string().nullable(),
  otpauthUri: z.string().nullable(),
  qrDataUrl: z.string().nullable(),
});
export type MfaKeyContent = z.infer<typeof mfaKeyContentSchema>;

/** `POST user/config/mfa/key`: bind the pending secret with its current code and an `MFA_ADD` email code. */
export const bindMfaRequestSchema = z.strictObject({
  mfaCode: sixDigitCodeSchema,
  emailCaptcha: sixDigitCodeSchema,
  securityPassword: sixDigitCodeSchema.optional(),
});
export type BindMfaRequest = z.input<typeof bindMfaRequestSchema>;

/** Answer of binding: the 10 one-time recovery codes, shown once. */
export const bindMfaContentSchema = z.object({ recoveryCodes: z.array(z.string()) });

/** `DELETE user/config/mfa/key`: unbind with the authenticator (or a recovery code) and an `MFA_REMOVE` email code. */
export const unbindMfaRequestSchema = z
  .strictObject({
    mfaCode: sixDigitCodeSchema.optional(),
    recoveryCode: recoveryCodeSchema.optional(),
    emailCaptcha: sixDigitCodeSchema,
    securityPassword: sixDigitCodeSchema.optional(),
  })
  .superRefine((body, ctx) => {
    if (!body.mfaCode && !body.recoveryCode)
      ctx.addIssue({ code: 'custom', path: ['mfaCode'], message: 'validation.required' });
  });

/** `POST user/security/password`: set or change the 6-digit trading password (security code). */
export const setSecurityPasswordRequestSchema = z
  .strictObject({
    newSecurityPassword: sixDigitCodeSchema,
    confirm: z.string({ error: 'validation.required' }).max(PASSWORD_LENGTH_MAX),
    emailCaptcha: sixDigitCodeSchema,
    mfaCode: sixDigitCodeSchema.optional(),
    passkey: passkeyAssertionSchema.optional(),
    securityPassword: sixDigitCodeSchema.optional(),
  })
  .superRefine((body, ctx) => {
    if (body.confirm !== body.newSecurityPassword)
      ctx.addIssue({ code: 'custom', path: ['confirm'], message: 'validation.passwordMismatch' });
  });

/** `POST user/password`: change the login password while signed in (revokes other sessions). */
export const changePasswordRequestSchema = z
  .strictObject({
    oldPassword: loginPasswordSchema,
    password: newPasswordSchema,
    confirm: z.string({ error: 'validation.required' }).max(PASSWORD_LENGTH_MAX),
    emailCaptcha: sixDigitCodeSchema,
    mfaCode: sixDigitCodeSchema.optional(),
    passkey: passkeyAssertionSchema.optional(),
  })
  .superRefine((body, ctx) => {
    if (body.confirm.trim() !== body.password.trim())
      ctx.addIssue({ code: 'custom', path: ['confirm'], message: 'validation.passwordMismatch' });
  });

/** National significant number: digits only, 4–14 (E.164 allows 15 digits with the country code). */
export const nationalNumberSchema = z
  .string({ error: 'validation.required' })
  .max(SHORT_TEXT_LENGTH_MAX)
  .transform((value) => value.replace(/[\s()-]/g, ''))
  .pipe(
    z
      .string()
      .max(14, { abort: true })
      .regex(/^\d{4,14}$/, { error: 'validation.mobile' }),
  );

/** `POST user/mobile/captcha`: send an SMS code to a number to bind. */
export const sendMobileCodeRequestSchema = z.strictObject({
  mobileCountry: z
    .string()
    .max(2, { abort: true })
    .regex(/^[A-Z]{2}$/, { error: 'validation.country' }),
  mobile: nationalNumberSchema,
});

/** `POST user/web/mobile/bind`: bind the number with its SMS code and a `MOBILE_BIND` email code. */
export const bindMobileRequestSchema = z.strictObject({
  mobileCountry: z
    .string()
    .max(2, { abort: true })
    .regex(/^[A-Z]{2}$/, { error: 'validation.country' }),
  mobile: nationalNumberSchema,
  smsCaptcha: sixDigitCodeSchema,
  emailCaptcha: sixDigitCodeSchema,
  mfaCode: sixDigitCodeSchema.optional(),
  passkey: passkeyAssertionSchema.optional(),
  securityPassword: sixDigitCodeSchema.optional(),
});

/** `POST user/email/captcha`: send an `EMAIL_CHANGE` code to the new address (proves it is the user's). */
export const sendNewEmailCodeRequestSchema = z.strictObject({ email: emailSchema });
export type SendNewEmailCodeRequest = z.input<typeof sendNewEmailCodeRequestSchema>;

/**
 * `POST user/email/change`: change the account's email. Carries the code sent to the new address
 * (`newEmailCaptcha`), an `EMAIL_CHANGE` code sent to the current address (`emailCaptcha`, always
 * required) and the trade factors (`mfaCode`, `securityPassword`) the user's configuration requires.
 */
export const changeEmailRequestSchema = z.strictObject({
  email: emailSchema,
  newEmailCaptcha: z
    .string({ error: 'validation.emailCode' })
    .max(6, { abort: true })
    .regex(/^\d{6}$/, { error: 'validation.code6' }),
  emailCaptcha: sixDigitCodeSchema.optional(),
  mfaCode: sixDigitCodeSchema.optional(),
  passkey: passkeyAssertionSchema.optional(),
  securityPassword: sixDigitCodeSchema.optional(),
});
export type ChangeEmailRequest = z.input<typeof changeEmailRequestSchema>;

/** One country of `GET user/country/list` with its calling codes (digits, no plus). */
export const countrySchema = z.object({
  code: z.string(),
  nameEn: z.string(),
  nameZh: z.string(),
  dialCodes: z.array(z.string()),
});
export type Country = z.infer<typeof countrySchema>;

// ---------------------------------------------------------------- sessions, history, deletion

/** One active session (device, IP, last seen). */
export const sessionItemSchema = z.object({
  id: z.string(),
  device: z.string(),
  ip: z.string().nullable(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  isCurrent: z.boolean(),
});
export type SessionItem = z.infer<typeof sessionItemSchema>;

/** One audit row shown as sign-in history. */
export const signInItemSchema = z.object({
  kind: z.string(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  createdAt: z.string(),
});
export type SignInItem = z.infer<typeof signInItemSchema>;

export const sessionIdParamsSchema = z.strictObject({ id: uuidString({ error: 'validation.required' }) });

/** `POST user/cancel`: close the account; carries the trade factors (event ACCOUNT_CANCEL). */
export const cancelAccountRequestSchema = z.strictObject({
  mfaCode: sixDigitCodeSchema.optional(),
  emailCaptcha: sixDigitCodeSchema.optional(),
  securityPassword: sixDigitCodeSchema.optional(),
});
