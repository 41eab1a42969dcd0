import { z } from 'zod';
import { emptyToUndefined, isIpOrCidr, type NodeEnv } from './env-rules.ts';

/** Secrets and access: the session secret, the back office's allowlist, the human check, API keys and card secrets. */
export const securityEnvSchema = z.object({
  SESSION_SECRET: z.preprocess(
    emptyToUndefined,
    z.string().min(32, { error: 'must be at least 32 characters' }).optional(),
  ),
  /** Back office: IPs or CIDR ranges, comma-separated, allowed to reach `/api/admin`; empty = any. */
  ADMIN_IP_ALLOWLIST: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .refine((text) => text.split(',').every((part) => isIpOrCidr(part.trim())), {
        error: 'must be IPs or CIDR ranges separated by commas',
      })
      .optional(),
  ),
  /** Work factor of the ALTCHA human check: the largest counter a client may have to try. Default 50000 (20 under NODE_ENV=test). */
  ALTCHA_MAX_COUNTER: z.preprocess(emptyToUndefined, z.coerce.number().int().min(2).max(10_000_000).optional()),
  /** Secret of the card issuer-processor's webhook HMAC-SHA256 signature (≥ 32 characters). Generated into DATA_DIR when absent (the sandbox processor signs with it). */
  CARD_WEBHOOK_SECRET: z.preprocess(
    emptyToUndefined,
    z.string().min(32, { error: 'must be at least 32 characters' }).optional(),
  ),
  /** Key of the sandbox card processor's vault (PAN, CVV, PIN encrypted at rest). Generated into DATA_DIR when absent. */
  CARD_VAULT_KEY: z.preprocess(
    emptyToUndefined,
    z.string().min(32, { error: 'must be at least 32 characters' }).optional(),
  ),
  /** Signed requests one developer API key may make per minute (then 108 with Retry-After). */
  API_KEY_REQUESTS_PER_MINUTE: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(100_000).optional()),
  /** How long an idempotent answer is replayed before the hourly purge deletes it (docs/api.md "Idempotency"). */
  IDEMPOTENCY_RETENTION_HOURS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(8760).optional()),
  /**
   * Key sealing the developer API keys' HMAC secrets at rest (AES-256-GCM; docs/api.md). Generated into DATA_DIR when
   * absent.
   */
  API_KEY_VAULT_KEY: z.preprocess(
    emptyToUndefined,
    z.string().min(32, { error: 'must be at least 32 characters' }).optional(),
  ),
});

/** The security variables after parsing. */
export type SecurityEnv = z.infer<typeof securityEnvSchema>;

/** The security variables' rules across variables. */
export function checkSecurityEnv(env: SecurityEnv & { NODE_ENV: NodeEnv }, ctx: z.RefinementCtx): void {
  if (env.NODE_ENV === 'production' && !env.SESSION_SECRET) {
    ctx.addIssue({ code: 'custom', path: ['SESSION_SECRET'], message: 'is required in production' });
  }
}
