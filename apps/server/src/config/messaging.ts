import { z } from 'zod';
import { emptyToUndefined } from './env-rules.ts';

/** Mail (SMTP) and Web Push (VAPID). */
export const messagingEnvSchema = z.object({
  SMTP_URL: z.preprocess(emptyToUndefined, z.url().optional()),
  /** VAPID keys for Web Push (RFC 8292); generated and kept in DATA_DIR when absent. */
  VAPID_PUBLIC_KEY: z.preprocess(emptyToUndefined, z.string().min(20).optional()),
  VAPID_PRIVATE_KEY: z.preprocess(emptyToUndefined, z.string().min(20).optional()),
  /** Contact the push services may use (mailto: or https:). */
  VAPID_SUBJECT: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^(mailto:|https:\/\/)/, { error: 'must start with mailto: or https://' })
      .optional(),
  ),
});

/** The messaging variables after parsing. */
export type MessagingEnv = z.infer<typeof messagingEnvSchema>;

/** The messaging variables' rules across variables. */
export function checkMessagingEnv(env: MessagingEnv, ctx: z.RefinementCtx): void {
  if (Boolean(env.VAPID_PUBLIC_KEY) !== Boolean(env.VAPID_PRIVATE_KEY)) {
    ctx.addIssue({
      code: 'custom',
      path: ['VAPID_PRIVATE_KEY'],
      message: 'and VAPID_PUBLIC_KEY must be set together',
    });
  }
}
