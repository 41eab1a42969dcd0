import { z } from 'zod';
import type { PriceSettings } from './platform/prices/factory.ts';
import { type DatabaseConfig, databaseConfig, databaseEnvSchema } from './config/database.ts';
import { checkMessagingEnv, messagingEnvSchema } from './config/messaging.ts';
import { checkPricesEnv, pricesConfig, pricesEnvSchema } from './config/prices.ts';
import { checkSecurityEnv, securityEnvSchema } from './config/security.ts';
import { checkServerEnv, serverEnvSchema, type WebauthnConfig, webauthnConfig } from './config/server.ts';
import { checkSiteEnv, type SiteConfig, siteConfig, siteEnvSchema } from './config/site.ts';
import { checkUploadsEnv, type UploadsConfig, uploadsConfig, uploadsEnvSchema } from './config/uploads.ts';
import {
  checkWalletEnv,
  type EvmConfig,
  evmConfig,
  type WalletConfig,
  walletConfig,
  walletEnvSchema,
} from './config/wallet.ts';

export { isIpOrCidr } from './config/env-rules.ts';

/**
 * Typed configuration read from the environment (the only module that reads `process.env`,
 * docs/architecture.md). `loadConfig` refuses to start with a message naming every bad variable. The
 * variables are declared by area in `config/` (server, database, security, messaging, prices,
 * wallet and chain, uploads, site), each with its rules across variables and the part of `Config`
 * it builds; this file puts them together.
 */
export const configSchema = z
  .object({
    ...serverEnvSchema.shape,
    ...databaseEnvSchema.shape,
    ...securityEnvSchema.shape,
    ...messagingEnvSchema.shape,
    ...pricesEnvSchema.shape,
    ...walletEnvSchema.shape,
    ...uploadsEnvSchema.shape,
    ...siteEnvSchema.shape,
  })
  .superRefine((env, ctx) => {
    checkServerEnv(env, ctx);
    checkSecurityEnv(env, ctx);
    checkMessagingEnv(env, ctx);
    checkWalletEnv(env, ctx);
    checkSiteEnv(env, ctx);
    checkPricesEnv(env, ctx);
    checkUploadsEnv(env, ctx);
  });

/** The environment after parsing (every variable of every area). */
export type Env = z.infer<typeof configSchema>;

/** The application's configuration after defaults and derived values. */
export interface Config {
  nodeEnv: Env['NODE_ENV'];
  isProduction: boolean;
  port: number;
  host: string;
  publicUrl: string;
  /** Passkeys: the relying-party id and the accepted origins (see `WebauthnConfig`). */
  webauthn: WebauthnConfig;
  database: DatabaseConfig;
  dataDir: string;
  /** Absent outside production until `ensureSessionSecret` generates and stores one in DATA_DIR. */
  sessionSecret: string | undefined;
  smtpUrl: string | undefined;
  redisUrl: string | undefined;
  /** Back office: the IPs/CIDR ranges allowed to reach `/api/admin` (empty: any). */
  adminIpAllowlist: string[];
  /** ALTCHA proof-of-work size (ALTCHA_MAX_COUNTER). */
  humanCheckMaxCounter: number;
  /** Seconds between two codes for one address and event: 59, less only in tests (CODE_RESEND_AFTER_SECONDS). */
  codeResendAfterSeconds: number;
  /** Test only (TEST_CLOCK_AT): the instant the app's clock starts at; undefined: the system clock. */
  testClockAt: Date | undefined;
  logLevel: Env['LOG_LEVEL'];
  webDistDir: string | undefined;
  seedDemo: boolean;
  /** Both VAPID keys, or undefined to generate them (kept in DATA_DIR; in memory for a memory database). */
  vapidKeys: { publicKey: string; privateKey: string } | undefined;
  vapidSubject: string;
  /** Price sources and their limits (platform/prices). */
  prices: PriceSettings;
  /** Whether `main.ts` starts the job scheduler. */
  jobsEnabled: boolean;
  /**
   * Where `GET /metrics` is served: on `port` (a separate listener) when set, else
   * on the app port — behind `token` when set, and not at all in production without either.
   */
  metrics: { token: string | undefined; port: number | undefined };
  /** Uploaded files (see `UploadsConfig`). */
  uploads: UploadsConfig;
  /** Wallet: custody webhook secret and deposit xpubs (see `WalletConfig`). */
  wallet: WalletConfig;
  /** Cards: the processor webhook secret and the sandbox vault key (generated into DATA_DIR, or memory, when absent). */
  cards: { webhookSecret: string | undefined; vaultKey: string | undefined };
  /** API_KEY_VAULT_KEY: seals the developer API keys' secrets (generated into DATA_DIR when absent). */
  apiKeyVaultKey: string | undefined;
  /** API_KEY_REQUESTS_PER_MINUTE: the per-key limit of signed requests (default 600). */
  apiKeyRequestsPerMinute: number;
  /** IDEMPOTENCY_RETENTION_HOURS: how long an idempotent answer is kept for replay (default 24 h), in ms. */
  idempotencyRetentionMs: number;
  /**
   * The EVM chain watcher (docs/chain.md): null without EVM_RPC_URL (EVM deposits then arrive by
   * the custody webhook).
   */
  evm: EvmConfig | null;
  /** The public site's operator details and links (SITE_*); undefined/empty: not configured. */
  site: SiteConfig;
}

/** Raised when the environment is invalid; the message lists every offending variable. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Parse an environment (default `process.env`) into a `Config`.
 * @throws ConfigError naming each bad variable and why.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => `${issue.path.join('.') || '(environment)'} ${issue.message}`),
    );
  }
  const e = parsed.data;
  return {
    nodeEnv: e.NODE_ENV,
    isProduction: e.NODE_ENV === 'production',
    port: e.PORT,
    host: e.HOST,
    publicUrl: e.PUBLIC_URL ?? `http://localhost:${e.PORT}`,
    webauthn: webauthnConfig(e),
    database: databaseConfig(e, e.DATA_DIR),
    dataDir: e.DATA_DIR,
    sessionSecret: e.SESSION_SECRET,
    smtpUrl: e.SMTP_URL,
    redisUrl: e.REDIS_URL,
    adminIpAllowlist: e.ADMIN_IP_ALLOWLIST ? e.ADMIN_IP_ALLOWLIST.split(',').map((part) => part.trim()) : [],
    humanCheckMaxCounter: e.ALTCHA_MAX_COUNTER ?? (e.NODE_ENV === 'test' ? 20 : 50_000),
    codeResendAfterSeconds: e.CODE_RESEND_AFTER_SECONDS ?? 59,
    testClockAt: e.TEST_CLOCK_AT === undefined ? undefined : new Date(e.TEST_CLOCK_AT),
    logLevel: e.LOG_LEVEL,
    webDistDir: e.WEB_DIST_DIR,
    vapidKeys:
      e.VAPID_PUBLIC_KEY && e.VAPID_PRIVATE_KEY
        ? { publicKey: e.VAPID_PUBLIC_KEY, privateKey: e.VAPID_PRIVATE_KEY }
        : undefined,
    vapidSubject: e.VAPID_SUBJECT ?? `mailto:support@${new URL(e.PUBLIC_URL ?? 'http://localhost').hostname}`,
    seedDemo: e.SEED_DEMO && e.NODE_ENV !== 'production',
    prices: pricesConfig(e),
    jobsEnabled: e.JOBS_ENABLED,
    metrics: { token: e.METRICS_TOKEN, port: e.METRICS_PORT },
    uploads: uploadsConfig(e, e.DATA_DIR),
    wallet: walletConfig(e),
    cards: { webhookSecret: e.CARD_WEBHOOK_SECRET, vaultKey: e.CARD_VAULT_KEY },
    apiKeyVaultKey: e.API_KEY_VAULT_KEY,
    apiKeyRequestsPerMinute: e.API_KEY_REQUESTS_PER_MINUTE ?? 600,
    idempotencyRetentionMs: (e.IDEMPOTENCY_RETENTION_HOURS ?? 24) * 3_600_000,
    evm: evmConfig(e),
    site: siteConfig(e),
  };
}
