import { z } from 'zod';
import { captchaEventSchema } from '../security.ts';
import { emailSchema, flowTicketSchema } from './fields.ts';

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
