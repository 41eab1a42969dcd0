import { z } from 'zod';
import { passkeyAssertionSchema, sixDigitCodeSchema } from '../security.ts';
import {
  emailSchema,
  loginPasswordSchema,
  humanCheckTokenSchema,
  flowTicketSchema,
  recoveryCodeSchema,
  requiredFactorsSchema,
  newPasswordSchema,
  PASSWORD_LENGTH_MAX,
} from './fields.ts';

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
