import { z } from 'zod';
import { SHORT_TEXT_LENGTH_MAX, uuidString } from './limits.ts';
import { defineEndpoint } from './endpoint.ts';
import { captchaEventSchema, passkeyAssertionSchema, sixDigitCodeSchema } from './security.ts';

/**
 * Request and response contracts of the identity module (user state, login/verify/register
 * payloads and their validation; `user/*`). One schema per endpoint, used by the server to validate and
 * by the web forms, so the two cannot drift.
 */

/** Minimum length of a login password (at least 8 characters). */
export const PASSWORD_LENGTH_MIN = 8;
/** Longest password accepted; argon2 hashes anything, the cap only bounds work per request. */
export const PASSWORD_LENGTH_MAX = 128;
/** Seconds between two sends of a code to the same address for the same event. */
export const CODE_RESEND_SECONDS = 59;

/**
 * An email address, trimmed and lower-cased (unique case-insensitively). The 254-character cap is
 * the SMTP path limit (RFC 5321 §4.5.3.1.3).
 */
export const emailSchema = z
  .string({ error: 'validation.required' })
  .trim()
  .min(1, { error: 'validation.required' })
  .max(254, { error: 'validation.email' })
  .pipe(z.email({ error: 'validation.email' }).max(254))
  .transform((value) => value.toLowerCase());

/** A login password as typed at login: required, never trimmed. */
export const loginPasswordSchema = z
  .string({ error: 'validation.required' })
  .min(1, { error: 'validation.required' })
  .max(PASSWORD_LENGTH_MAX);

/** A new password: at least 8 characters after trimming; the common-password check is the server's. */
export const newPasswordSchema = z
  .string({ error: 'validation.required' })
  .max(PASSWORD_LENGTH_MAX)
  .refine((value) => value.trim().length >= PASSWORD_LENGTH_MIN, { error: 'validation.passwordMin' });

/** The ALTCHA payload produced by the widget: base64 of `{challenge, solution}` JSON. */
export const humanCheckTokenSchema = z.string().min(1, { error: 'validation.required' }).max(8192);
/** A flow ticket handed out by the first step of login/register/recover (opaque, 43 characters). */
export const flowTicketSchema = z
  .string()
  .max(100, { abort: true })
  .regex(/^[\w-]{20,100}$/, { error: 'validation.required' });
/** A one-time authenticator recovery code, `XXXXX-XXXXX` of base32 letters (case-insensitive). */
export const recoveryCodeSchema = z
  .string()
  .max(SHORT_TEXT_LENGTH_MAX)
  .trim()
  .transform((value) => value.toUpperCase())
  .pipe(
    z
      .string()
      .max(11, { abort: true })
      .regex(/^[A-Z2-7]{5}-?[A-Z2-7]{5}$/, { error: 'validation.recoveryCode' }),
  );

/** Which factors a step requires. */
export const requiredFactorsSchema = z.object({ email: z.boolean(), mfa: z.boolean(), security: z.boolean() });
export type RequiredFactors = z.infer<typeof requiredFactorsSchema>;

// ---------------------------------------------------------------- human check

/** `GET user/human-check/challenge`: an ALTCHA v2 challenge for the widget. */
export const humanCheckChallengeSchema = z.object({
  parameters: z.record(z.string(), z.unknown()),
  signature: z.string().optional(),
});

// ---------------------------------------------------------------- login

/**
 * `POST user/login`. First call: `email`, `password`, `token` (human check). When the answer asks
 * for factors it carries a `ticket`; the second call sends `email`, `password`, `ticket` and the
 * factors (`emailCaptcha`, `mfaCode`, `recoveryCode` or `passkey` — a passkey assertion satisfies `mfa`).
 */
export const loginRequestSchema = z
  .strictObject({
    email: emailSchema,
    password: loginPasswordSchema,
    token: humanCheckTokenSchema.optional(),
    ticket: flowTicketSchema.optional(),
    emailCaptcha: sixDigitCodeSchema.optional(),
    mfaCode: sixDigitCodeSchema.optional(),
    passkey: passkeyAssertionSchema.optional(),
    recoveryCode: recoveryCodeSchema.optional(),
  })
  .superRefine((body, ctx) => {
    if (!body.token && !body.ticket)
      ctx.addIssue({ code: 'custom', path: ['token'], message: 'validation.humanCheck' });
  });
export type LoginRequest = z.input<typeof loginRequestSchema>;

/** Answer of `user/login`: `accountId` once signed in; otherwise the factors still needed and a ticket. */
export const loginContentSchema = requiredFactorsSchema.extend({
  accountId: z.string().nullable(),
  ticket: z.string().nullable(),
  /** With `mfa`: the account has a passkey, which the Verify step may offer for it. */
  passkey: z.boolean().optional(),
  /** With `mfa`: the authenticator app is bound (false: a passkey is the only way to give `mfa`). */
  authenticator: z.boolean().optional(),
});
export type LoginContent = z.infer<typeof loginContentSchema>;

// ---------------------------------------------------------------- register / recover

/**
 * `POST user/register` and `POST user/forgetPassword`, one schema for the three steps of the flow
 * (the steps Mail → Verify → Password):
 * 1. `{email, token}` passes the human check and returns a `ticket`;
 * 2. `{email, ticket, emailCaptcha}` checks the code without using it up (the Verify step);
 * 3. `{email, ticket, emailCaptcha, password, confirm}` (register; recover uses `user/resetPassword`).
 */
export const emailFlowRequestSchema = z
  .strictObject({
    email: emailSchema,
    token: humanCheckTokenSchema.optional(),
    ticket: flowTicketSchema.optional(),
    emailCaptcha: sixDigitCodeSchema.optional(),
    password: newPasswordSchema.optional(),
    confirm: z.string().max(PASSWORD_LENGTH_MAX).optional(),
  })
  .superRefine((body, ctx) => {
    if (!body.ticket && !body.token)
      ctx.addIssue({ code: 'custom', path: ['token'], message: 'validation.humanCheck' });
    if (body.password !== undefined) {
      if (body.emailCaptcha === undefined)
        ctx.addIssue({ code: 'custom', path: ['emailCaptcha'], message: 'validation.required' });
      if (body.confirm === undefined)
        ctx.addIssue({ code: 'custom', path: ['confirm'], message: 'validation.required' });
      else if (body.confirm.trim() !== body.password.trim())
        ctx.addIssue({ code: 'custom', path: ['confirm'], message: 'validation.passwordMismatch' });
    }
  });
export type EmailFlowRequest = z.input<typeof emailFlowRequestSchema>;

/** `POST user/resetPassword` (api-version 2.0): the Password step of Recover. */
export const resetPasswordRequestSchema = z
  .strictObject({
    email: emailSchema,
    ticket: flowTicketSchema,
    emailCaptcha: sixDigitCodeSchema,
    password: newPasswordSchema,
    confirm: z.string({ error: 'validation.required' }).max(PASSWORD_LENGTH_MAX),
  })
  .superRefine((body, ctx) => {
    if (body.confirm.trim() !== body.password.trim())
      ctx.addIssue({ code: 'custom', path: ['confirm'], message: 'validation.passwordMismatch' });
  });
export type ResetPasswordRequest = z.input<typeof resetPasswordRequestSchema>;

/** Answer of the register/recover steps: the flags, the ticket, and `accountId` once created. */
export const emailFlowContentSchema = requiredFactorsSchema.extend({
  ticket: z.string().nullable(),
  accountId: z.string().nullable(),
});
export type EmailFlowContent = z.infer<typeof emailFlowContentSchema>;

// ---------------------------------------------------------------- codes

/**
 * `POST user/captcha`: send an email code for `event`. Signed in: to the account's address (the body
 * `email` is ignored). Signed out: only `EMAIL_REGISTER`, `FORGET_PASSWORD` and `LOGIN_CHECK`, with
 * the `email` and `ticket` of the flow's first step.
 */
export const sendEmailCodeRequestSchema = z.strictObject({
  event: captchaEventSchema,
  email: emailSchema.optional(),
  ticket: flowTicketSchema.optional(),
});
export type SendEmailCodeRequest = z.input<typeof sendEmailCodeRequestSchema>;

/** Answer of a code send: where it went (masked) and when another may be asked for. */
export const sendCodeContentSchema = z.object({ maskedTo: z.string(), resendAfterSeconds: z.number().int() });
export type SendCodeContent = z.infer<typeof sendCodeContentSchema>;

// ---------------------------------------------------------------- user state

/** Review status with an optional message (`status.user`, `status.investor`). */
export const reviewStatusSchema = z.object({ status: z.number().int(), message: z.string() });

/** The security configuration (`conf`; `GET user/config`). */
export const securityConfigSchema = z.object({
  /** 1 when a trading password (security code) is set. */
  security: z.number().int(),
  /** Enabled second factors: `'google'` when the authenticator is bound, `'passkey'` when a passkey is registered. */
  mfa: z.array(z.string()),
  login: z.object({ email: z.number().int(), mfa: z.number().int() }),
  trade: z.object({ email: z.number().int(), mfa: z.number().int(), security: z.number().int() }),
  /** 1 when a mobile number is bound. */
  mobile: z.number().int(),
  /** ISO time until which withdrawals are held after a security change, or null. */
  withdrawalHoldUntil: z.string().nullable(),
});
export type SecurityConfig = z.infer<typeof securityConfigSchema>;

/** `GET user/self` (the user state plus `uuid`, `country`). */
export const selfContentSchema = z.object({
  uid: z.string(),
  uuid: z.string(),
  email: z.string(),
  mobile: z.string().nullable(),
  mobileCountry: z.string().nullable(),
  mobileCode: z.string().nullable(),
  country: z.string().nullable(),
  locale: z.string(),
  createdAt: z.string(),
  status: z.object({
    user: reviewStatusSchema,
    investor: reviewStatusSchema,
    aml: z.number().int(),
    qualify: z.number().int(),
  }),
  /**
   * The verification level every KYC gate reads (0 registered, 1 basic, 2 investor, 3 qualified;
   * `KYC_STEPS`): the one source the web's identity pages show (docs/decisions/0011-verification-level.md).
   */
  kycLevel: z.number().int(),
  conf: securityConfigSchema,
  identity: z.object({
    basic: z.object({ lastName: z.string(), firstName: z.string(), country: z.string() }).nullable(),
    investor: z.object({ type: z.string(), user: z.unknown(), company: z.unknown() }).nullable(),
  }),
});
export type SelfContent = z.infer<typeof selfContentSchema>;

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

// ---------------------------------------------------------------- endpoints

/**
 * The identity calls (`user/*`: human check, sign-in, register and recover, codes, the
 * user's state, sessions, account deletion) with their rules: the descriptors the server registers
 * its routes from (see `endpoint.ts`). The security settings are `securityEndpoints` below.
 */
export const identityEndpoints = {
  humanCheckChallenge: defineEndpoint({
    method: 'GET',
    path: '/user/human-check/challenge',
    tag: 'identity',
    summary: 'ALTCHA proof-of-work challenge for login, register and recover',
    auth: 'none',
    // The ALTCHA widget fetches it itself: the challenge, not an envelope.
    isBareContent: true,
    content: humanCheckChallengeSchema,
  }),
  login: defineEndpoint({
    method: 'POST',
    path: '/user/login',
    tag: 'identity',
    summary: 'Log in: email, password, token; then the factors asked for',
    auth: 'none',
    body: loginRequestSchema,
    content: loginContentSchema,
    codes: ['ACCOUNT_LOCKED', 'LOGIN_FAILED', 'CAPTCHA_FAILED'],
  }),
  logout: defineEndpoint({
    method: 'POST',
    path: '/user/logout',
    tag: 'identity',
    summary: 'Log out: revoke this session',
    auth: 'optional',
    content: z.null(),
  }),
  register: defineEndpoint({
    method: 'POST',
    path: '/user/register',
    tag: 'identity',
    summary: 'Register: Mail, Verify and Password steps',
    auth: 'none',
    body: emailFlowRequestSchema,
    content: emailFlowContentSchema,
    codes: ['CAPTCHA_FAILED', 'CONFLICT'],
  }),
  forgetPassword: defineEndpoint({
    method: 'POST',
    path: '/user/forgetPassword',
    tag: 'identity',
    summary: 'Recover: Mail and Verify steps',
    auth: 'none',
    body: emailFlowRequestSchema,
    content: emailFlowContentSchema,
    codes: ['CAPTCHA_FAILED'],
  }),
  resetPassword: defineEndpoint({
    method: 'POST',
    path: '/user/resetPassword',
    tag: 'identity',
    summary: 'Recover: Password step; revokes every session, holds withdrawals 24 h',
    auth: 'none',
    apiVersion: '2.0',
    body: resetPasswordRequestSchema,
    content: emailFlowContentSchema,
    codes: ['CAPTCHA_FAILED'],
  }),
  sendEmailCode: defineEndpoint({
    method: 'POST',
    path: '/user/captcha',
    tag: 'identity',
    summary: 'Send an email code for an event',
    auth: 'optional',
    body: sendEmailCodeRequestSchema,
    content: sendCodeContentSchema,
    // LOGIN_EXPIRED: signed out, for an event other than register, recover and login.
    codes: ['LOGIN_EXPIRED', 'CODE_RESEND_WAIT', 'CAPTCHA_FAILED'],
  }),
  self: defineEndpoint({
    method: 'GET',
    path: '/user/self',
    tag: 'identity',
    summary: 'The signed-in user',
    auth: 'user',
    content: selfContentSchema,
  }),
  listCountries: defineEndpoint({
    method: 'GET',
    path: '/user/country/list',
    tag: 'identity',
    summary: 'Countries with English and Traditional Chinese names and calling codes',
    auth: 'none',
    content: z.array(countrySchema),
  }),
  listSessions: defineEndpoint({
    method: 'GET',
    path: '/user/sessions',
    tag: 'identity',
    summary: 'Active sessions',
    auth: 'user',
    content: z.array(sessionItemSchema),
  }),
  revokeSession: defineEndpoint({
    method: 'DELETE',
    path: '/user/sessions/:id',
    tag: 'identity',
    summary: 'Revoke one session',
    auth: 'user',
    params: sessionIdParamsSchema,
    content: z.null(),
    codes: ['NOT_FOUND'],
  }),
  listSignIns: defineEndpoint({
    method: 'GET',
    path: '/user/signins',
    tag: 'identity',
    summary: 'Recent sign-ins and failures',
    auth: 'user',
    content: z.array(signInItemSchema),
  }),
  cancelAccount: defineEndpoint({
    method: 'POST',
    path: '/user/cancel',
    tag: 'identity',
    summary: 'Delete (close) the account after security verification',
    auth: 'user',
    sensitiveAction: 'ACCOUNT_CANCEL',
    apiVersion: '2.0',
    body: cancelAccountRequestSchema,
    content: z.null(),
    codes: ['ACCOUNT_NOT_EMPTY', 'CAPTCHA_FAILED', 'ACCOUNT_LOCKED'],
  }),
};

/**
 * The security settings (`user/config*`, `user/security/password`, `user/password`, email
 * and mobile binding): each carries the factors it needs in its body, checked by the service.
 * Kept here rather than in `security.ts` because their schemas are above and `security.ts` is
 * imported by this file.
 */
export const securityEndpoints = {
  config: defineEndpoint({
    method: 'GET',
    path: '/user/config',
    tag: 'identity',
    summary: 'Security configuration',
    auth: 'user',
    content: securityConfigSchema,
  }),
  switchConfig: defineEndpoint({
    method: 'POST',
    path: '/user/config/switch',
    tag: 'identity',
    summary: 'Turn a login or trade factor on or off',
    auth: 'user',
    body: configSwitchRequestSchema,
    content: securityConfigSchema,
    codes: ['CAPTCHA_FAILED', 'ACCOUNT_LOCKED'],
  }),
  mfaKey: defineEndpoint({
    method: 'GET',
    path: '/user/config/mfa/key',
    tag: 'identity',
    summary: 'A new authenticator secret with its QR code',
    auth: 'user',
    content: mfaKeyContentSchema,
  }),
  bindMfa: defineEndpoint({
    method: 'POST',
    path: '/user/config/mfa/key',
    tag: 'identity',
    summary: 'Bind the authenticator; returns 10 recovery codes once',
    auth: 'user',
    body: bindMfaRequestSchema,
    content: bindMfaContentSchema,
    codes: ['CONFLICT', 'CAPTCHA_FAILED', 'ACCOUNT_LOCKED'],
  }),
  unbindMfa: defineEndpoint({
    method: 'DELETE',
    path: '/user/config/mfa/key',
    tag: 'identity',
    summary: 'Unbind the authenticator',
    auth: 'user',
    body: unbindMfaRequestSchema,
    content: z.null(),
    codes: ['CAPTCHA_FAILED', 'ACCOUNT_LOCKED'],
  }),
  setSecurityPassword: defineEndpoint({
    method: 'POST',
    path: '/user/security/password',
    tag: 'identity',
    summary: 'Set or change the 6-digit security code (trading password)',
    auth: 'user',
    body: setSecurityPasswordRequestSchema,
    content: securityConfigSchema,
    codes: ['CAPTCHA_FAILED', 'ACCOUNT_LOCKED'],
  }),
  changePassword: defineEndpoint({
    method: 'POST',
    path: '/user/password',
    tag: 'identity',
    summary: 'Change the login password; signs out other sessions',
    auth: 'user',
    body: changePasswordRequestSchema,
    content: z.null(),
    codes: ['CAPTCHA_FAILED'],
  }),
  sendNewEmailCode: defineEndpoint({
    method: 'POST',
    path: '/user/email/captcha',
    tag: 'identity',
    summary: 'Send an EMAIL_CHANGE code to a new email address',
    auth: 'user',
    body: sendNewEmailCodeRequestSchema,
    content: sendCodeContentSchema,
    codes: ['CODE_RESEND_WAIT'],
  }),
  changeEmail: defineEndpoint({
    method: 'POST',
    path: '/user/email/change',
    tag: 'identity',
    summary:
      'Change the email address (new-address code + current factors); signs out other sessions, holds withdrawals 72 h',
    auth: 'user',
    body: changeEmailRequestSchema,
    content: z.null(),
    codes: ['CAPTCHA_FAILED', 'ACCOUNT_LOCKED', 'CONFLICT'],
  }),
  sendMobileCode: defineEndpoint({
    method: 'POST',
    path: '/user/mobile/captcha',
    tag: 'identity',
    summary: 'Send an SMS code to a number to bind',
    auth: 'user',
    body: sendMobileCodeRequestSchema,
    content: sendCodeContentSchema,
    codes: ['CODE_RESEND_WAIT'],
  }),
  bindMobile: defineEndpoint({
    method: 'POST',
    path: '/user/web/mobile/bind',
    tag: 'identity',
    summary: 'Bind a mobile number',
    auth: 'user',
    apiVersion: '2.0',
    body: bindMobileRequestSchema,
    content: securityConfigSchema,
    codes: ['CAPTCHA_FAILED', 'ACCOUNT_LOCKED'],
  }),
};

/**
 * Email masking: a valid address whose local part is longer than 4 characters keeps its
 * first 2 and last 2 characters, otherwise 1 each; the middle becomes asterisks. Invalid → ''.
 */
export function maskEmail(address: string): string {
  const match = /^([^@\s]+)@([^@\s]+\.[^@\s]+)$/.exec(address);
  if (!match) return '';
  const [, local = '', domain = ''] = match;
  const keep = local.length > 4 ? 2 : 1;
  if (local.length <= keep * 2)
    return `${local.slice(0, keep)}${'*'.repeat(Math.max(local.length - keep, 1))}@${domain}`;
  return `${local.slice(0, keep)}${'*'.repeat(local.length - keep * 2)}${local.slice(-keep)}@${domain}`;
}
