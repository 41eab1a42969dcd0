import { z } from 'zod';
import { SHORT_TEXT_LENGTH_MAX } from '../limits.ts';

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
