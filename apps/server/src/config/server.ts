import { z } from 'zod';
import { emptyToUndefined, LOG_LEVELS } from './env-rules.ts';

/** The process, its URLs and passkeys, logging, jobs, metrics and the test-only switches. */
export const serverEnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  PUBLIC_URL: z.preprocess(emptyToUndefined, z.url().optional()),
  /** Passkeys' relying-party id (a domain: the site's host or a parent of it); default PUBLIC_URL's host. */
  WEBAUTHN_RP_ID: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[a-z0-9.-]+$/i, { error: 'must be a domain name' })
      .optional(),
  ),
  /** Origins passkey answers may come from, comma-separated; default PUBLIC_URL's origin. */
  WEBAUTHN_ORIGINS: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .refine((value) => value.split(',').every((origin) => URL.canParse(origin.trim())), {
        error: 'must be comma-separated URLs (https://app.example.com)',
      })
      .optional(),
  ),
  DATA_DIR: z.string().min(1).default('./data'),
  REDIS_URL: z.preprocess(emptyToUndefined, z.url().optional()),
  /**
   * Test only (refused unless NODE_ENV=test): seconds before the server sends another code for the
   * same address and event, instead of the default 59. The end-to-end specs that must ask twice for
   * one event's code set it on their own server (e2e/own-server.ts) instead of waiting a minute.
   */
  CODE_RESEND_AFTER_SECONDS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(59).optional()),
  /**
   * Test only (refused unless NODE_ENV=test): the instant the server's clock reads when the app is
   * built, an ISO 8601 instant with its offset (`2027-02-28T23:59:00+08:00`); the clock then runs
   * at the real rate. `scripts/date-matrix.mjs` runs the tests under several dates (docs/clock.md).
   */
  TEST_CLOCK_AT: z.preprocess(emptyToUndefined, z.iso.datetime({ offset: true }).optional()),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  /** Directory of the built web app; served with an SPA fallback when it exists. */
  WEB_DIST_DIR: z.preprocess(emptyToUndefined, z.string().optional()),
  /** Run the in-process job scheduler (price sampling, roll-ups, retention). */
  JOBS_ENABLED: z
    .enum(['true', 'false'])
    .default('true')
    .transform((value) => value === 'true'),
  /** Bearer token that `GET /metrics` requires (`Authorization: Bearer <token>`; ≥ 32 characters). */
  METRICS_TOKEN: z.preprocess(
    emptyToUndefined,
    z.string().min(32, { error: 'must be at least 32 characters' }).optional(),
  ),
  /** Serve `/metrics` on this separate port (the monitoring network) instead of the app port. */
  METRICS_PORT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(65535).optional()),
  /** Run the idempotent demo seed at start (never in production). */
  SEED_DEMO: z
    .enum(['true', 'false'])
    .default('true')
    .transform((value) => value === 'true'),
});

/** The server variables after parsing. */
export type ServerEnv = z.infer<typeof serverEnvSchema>;

/** The server variables' rules across variables. */
export function checkServerEnv(env: ServerEnv, ctx: z.RefinementCtx): void {
  if (env.CODE_RESEND_AFTER_SECONDS !== undefined && env.NODE_ENV !== 'test') {
    ctx.addIssue({
      code: 'custom',
      path: ['CODE_RESEND_AFTER_SECONDS'],
      message: 'is only allowed with NODE_ENV=test',
    });
  }
  if (env.TEST_CLOCK_AT !== undefined && env.NODE_ENV !== 'test') {
    ctx.addIssue({ code: 'custom', path: ['TEST_CLOCK_AT'], message: 'is only allowed with NODE_ENV=test' });
  }
  if (env.METRICS_PORT !== undefined && env.METRICS_PORT === env.PORT) {
    ctx.addIssue({ code: 'custom', path: ['METRICS_PORT'], message: 'must differ from PORT' });
  }
  if (env.NODE_ENV === 'production' && !env.PUBLIC_URL) {
    ctx.addIssue({ code: 'custom', path: ['PUBLIC_URL'], message: 'is required in production' });
  }
}

/**
 * Passkeys: the relying-party id and the accepted origins. Each defaults to PUBLIC_URL
 * (its host, its origin) when that is set; when neither is set (development, tests), each request
 * supplies its own (`Host`), so `localhost:5173` and `localhost:3000` both work.
 */
export interface WebauthnConfig {
  rpId: string | undefined;
  origins: string[] | undefined;
}

/** The passkeys' settings from WEBAUTHN_RP_ID, WEBAUTHN_ORIGINS and PUBLIC_URL. */
export function webauthnConfig(e: ServerEnv): WebauthnConfig {
  return {
    rpId: e.WEBAUTHN_RP_ID ?? (e.PUBLIC_URL ? new URL(e.PUBLIC_URL).hostname : undefined),
    origins: e.WEBAUTHN_ORIGINS
      ? e.WEBAUTHN_ORIGINS.split(',').map((origin) => new URL(origin.trim()).origin)
      : e.PUBLIC_URL
        ? [new URL(e.PUBLIC_URL).origin]
        : undefined,
  };
}
