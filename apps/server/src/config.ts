import { join } from 'node:path';
import ipaddr from 'ipaddr.js';
import { z } from 'zod';
import { PRICE_SOURCE_NAMES, type PriceSettings, type PriceSourceName } from './platform/prices/factory.ts';

/**
 * Typed configuration read from the environment (ARCHITECTURE §1: the only module that reads
 * `process.env`). `loadConfig` refuses to start with a message naming every bad variable.
 */
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const emptyToUndefined = (value: unknown) => (value === '' ? undefined : value);

/**
 * A per-coin setting `CODE=value,CODE=value` (coin codes in capitals), each value matching `valueRule`;
 * parsed to a record of code → value.
 */
function coinMap(valueRule: RegExp, valueName: string) {
  return z
    .string()
    .regex(new RegExp(`^[A-Z0-9]{2,10}=[^,=]+(,[A-Z0-9]{2,10}=[^,=]+)*$`), { error: 'must be CODE=value,CODE=value' })
    .transform((text, context) => {
      const entries = text.split(',').map((pair) => pair.split('=') as [string, string]);
      for (const [code, value] of entries)
        if (!valueRule.test(value)) context.addIssue({ code: 'custom', message: `${code} must be ${valueName}` });
      return Object.fromEntries(entries);
    });
}

/**
 * `PRICE_SOURCES`: `replay` alone, or a comma-separated list of exchanges (mixing real and replayed
 * prices is refused). Unset means `replay`, except in production, where it must be chosen.
 */
const priceSourcesSchema = z.preprocess(
  emptyToUndefined,
  z
    .string()
    .transform((text) =>
      text
        .split(',')
        .map((name) => name.trim().toLowerCase())
        .filter((name) => name !== ''),
    )
    .pipe(
      z
        .array(z.enum(PRICE_SOURCE_NAMES))
        .min(1)
        .refine((names) => !names.includes('replay') || names.length === 1, {
          error: 'replay cannot be combined with exchange sources',
        })
        .refine((names) => new Set(names).size === names.length, { error: 'lists a source twice' }),
    )
    .optional(),
);

/** An absolute `https://` URL (links the public site shows). */
const httpsUrlSchema = z.url({ protocol: /^https$/, error: 'must be an https:// URL' });

/**
 * `SITE_LICENCES`: `Authority|Licence|Number` entries separated by `;`, e.g.
 * `Hong Kong SFC|Type 1 licence|ABC123;Hong Kong Customs|Money Service Operator|12-34-56789`.
 */
const siteLicencesSchema = z
  .string()
  .transform((text) =>
    text
      .split(';')
      .map((entry) => entry.trim())
      .filter((entry) => entry !== '')
      .map((entry) => entry.split('|').map((part) => part.trim())),
  )
  .pipe(
    z
      .array(
        z
          .array(z.string())
          .refine((parts) => parts.length >= 2 && parts.length <= 3 && parts[0] !== '' && parts[1] !== '', {
            error: 'each entry must read Authority|Licence|Number (the number may be left out)',
          }),
      )
      .transform((entries) =>
        entries.map(([authority = '', licence = '', number = '']) => ({ authority, licence, number })),
      ),
  );

export const configSchema = z
  .object({
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
    /** `postgres://…` for a PostgreSQL server, `memory://` for a throw-away in-memory PGlite; unset for PGlite in DATA_DIR. */
    DATABASE_URL: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .regex(/^(postgres(ql)?:\/\/.+|memory:\/\/)$/, { error: 'must be postgres://… or memory://' })
        .optional(),
    ),
    /**
     * `postgres://…` of a direct (session) connection to the same primary, for what needs a session:
     * LISTEN and migrations. Set it when DATABASE_URL points at a pooler in transaction mode
     * (PgBouncer), which drops session state between transactions. Unset: DATABASE_URL.
     */
    DATABASE_DIRECT_URL: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .regex(/^postgres(ql)?:\/\/.+$/, { error: 'must be postgres://…' })
        .optional(),
    ),
    /** `postgres://…` of a hot standby for reads that may lag (docs/scale.md). Unset: all reads on the primary. */
    DATABASE_READ_URL: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .regex(/^postgres(ql)?:\/\/.+$/, { error: 'must be postgres://…' })
        .optional(),
    ),
    /** Replication lag (ms) beyond which reads fall back to the primary. */
    DATABASE_READ_MAX_LAG_MS: z.coerce.number().int().min(100).max(600_000).default(5000),
    DATA_DIR: z.string().min(1).default('./data'),
    SESSION_SECRET: z.preprocess(
      emptyToUndefined,
      z.string().min(32, { error: 'must be at least 32 characters' }).optional(),
    ),
    SMTP_URL: z.preprocess(emptyToUndefined, z.url().optional()),
    REDIS_URL: z.preprocess(emptyToUndefined, z.url().optional()),
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
    /** Directory of the built web app; served with an SPA fallback when it exists. */
    WEB_DIST_DIR: z.preprocess(emptyToUndefined, z.string().optional()),
    /** Where prices come from: `replay` (embedded default) or exchanges, e.g. `binance,coinbase,kraken`. */
    PRICE_SOURCES: priceSourcesSchema,
    /** A source observation older than this is left out of the median. */
    PRICE_MAX_AGE_MS: z.coerce.number().int().min(1000).max(600_000).default(30_000),
    /** A source further than this from the median is left out (basis points; 200 = 2%). */
    PRICE_DEVIATION_BPS_MAX: z.coerce.number().int().min(1).max(5000).default(200),
    /** Stablecoin band around 1 USD; outside it the alarm is raised (basis points; 100 = ±1%). */
    PRICE_STABLECOIN_BAND_BPS: z.coerce.number().int().min(1).max(5000).default(100),
    /** Timeout of one exchange request. */
    PRICE_HTTP_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(3000),
    /** Directory of the replayed history files; default apps/server/data/prices. */
    PRICE_REPLAY_DATA_DIR: z.preprocess(emptyToUndefined, z.string().optional()),
    /** The replayed day at PRICE_REPLAY_ANCHOR_AT. */
    PRICE_REPLAY_START: z.iso.date().default('2020-01-01'),
    /** The real instant at which the replay is at PRICE_REPLAY_START; fixed so that restarts and instances agree. */
    PRICE_REPLAY_ANCHOR_AT: z.iso.datetime({ offset: true }).default('2026-01-01T00:00:00Z'),
    /** Real minutes per replayed day: 1440 replays at the real pace, 60 plays one day per hour. */
    PRICE_REPLAY_DAY_MINUTES: z.coerce.number().min(0.1).max(525_600).default(1440),
    /** Run the in-process job scheduler (price sampling, roll-ups, retention). */
    JOBS_ENABLED: z
      .enum(['true', 'false'])
      .default('true')
      .transform((value) => value === 'true'),
    /** Secret of the custody webhook's HMAC-SHA256 signature (≥ 32 characters). Generated into DATA_DIR when absent (not in production). */
    CUSTODY_WEBHOOK_SECRET: z.preprocess(
      emptyToUndefined,
      z.string().min(32, { error: 'must be at least 32 characters' }).optional(),
    ),
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
    /** Account-level extended public keys for deposit addresses: zpub/xpub at m/84'/0'/0' (Bitcoin), xpub at m/44'/60'/0' (ETH, ERC20), xpub at m/44'/195'/0' (TRC20). A demo set is generated into DATA_DIR when absent (not in production). */
    WALLET_XPUB_BITCOIN: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .regex(/^[xz]pub[1-9A-HJ-NP-Za-km-z]{100,112}$/, { error: 'must be an xpub… or zpub… extended public key' })
        .optional(),
    ),
    WALLET_XPUB_EVM: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .regex(/^xpub[1-9A-HJ-NP-Za-km-z]{100,112}$/, { error: 'must be an xpub… extended public key' })
        .optional(),
    ),
    WALLET_XPUB_TRON: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .regex(/^xpub[1-9A-HJ-NP-Za-km-z]{100,112}$/, { error: 'must be an xpub… extended public key' })
        .optional(),
    ),
    /** Withdraw only to address-book entries at least 24 hours old. */
    WITHDRAW_WHITELIST_MODE: z
      .enum(['true', 'false'])
      .default('false')
      .transform((value) => value === 'true'),
    /**
     * Withdrawals whose USD value at request time is over this amount (a decimal string of USD, at
     * most 2 decimals) need a second finance operator's approval before another one processes them.
     */
    LARGE_WITHDRAWAL_USD: z
      .string()
      .regex(/^(0|[1-9]\d*)(\.\d{1,2})?$/, { error: 'must be a USD amount such as 10000 or 2500.50' })
      .default('10000'),
    /**
     * JSON-RPC URL of an Ethereum node: when set, the chain watcher (docs/chain.md) credits ETH,
     * USDT and USDC deposits from the chain; unset, EVM deposits arrive by the custody webhook.
     */
    EVM_RPC_URL: z.preprocess(emptyToUndefined, z.url({ protocol: /^(https?|wss?)$/ }).optional()),
    /** Time between two looks at the node for new blocks. */
    EVM_POLL_INTERVAL_MS: z.coerce.number().int().min(50).max(600_000).default(4000),
    /** Most blocks the watcher reads in one poll (catching up after a pause). */
    EVM_BLOCKS_PER_POLL: z.coerce.number().int().min(1).max(10_000).default(100),
    /** Confirmations per coin before a chain deposit is credited, `ETH=12,USDT=12`; a coin not named keeps its network's setting. */
    EVM_CONFIRMATIONS: z.preprocess(emptyToUndefined, coinMap(/^\d{1,6}$/, 'a whole number').optional()),
    /** ERC-20 contracts watched per coin, `USDT=0x…,USDC=0x…`; default: the Ethereum mainnet USDT and USDC contracts. */
    EVM_TOKENS: z.preprocess(emptyToUndefined, coinMap(/^0x[0-9a-fA-F]{40}$/, 'a 0x… contract address').optional()),
    /** Smallest chain deposit credited per coin (decimal amounts, `ETH=0.001,USDT=1`); smaller ones are held for review. */
    EVM_DEPOSIT_MINIMUMS: z.preprocess(emptyToUndefined, coinMap(/^\d+(\.\d+)?$/, 'a decimal amount').optional()),
    /** First block the watcher reads when it has no cursor yet; default: the node's latest block then. */
    EVM_START_BLOCK: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).optional()),
    /** Key (≥ 32 characters) sealing the EVM hot wallet's private key at rest (docs/chain.md "Withdrawals"). Generated into DATA_DIR when absent; required in production with EVM_RPC_URL. */
    CHAIN_VAULT_KEY: z.preprocess(
      emptyToUndefined,
      z.string().min(32, { error: 'must be at least 32 characters' }).optional(),
    ),
    /** Highest EIP-1559 max fee per gas a withdrawal transaction may offer, in gwei (a decimal). */
    EVM_MAX_FEE_GWEI: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .regex(/^\d{1,6}(\.\d{1,9})?$/, { error: 'must be a gwei amount such as 200 or 1.5' })
        .default('200'),
    ),
    /** A withdrawal transaction not mined this long after its broadcast is replaced with a higher fee (same nonce). */
    CHAIN_REPLACE_AFTER_MS: z.coerce.number().int().min(1000).max(86_400_000).default(180_000),
    /** Block-explorer link of a transaction: `{hash}` is replaced by the hash, else the hash is appended. */
    EVM_EXPLORER_TX_URL: z.preprocess(
      emptyToUndefined,
      z.url({ protocol: /^https?$/ }).default('https://etherscan.io/tx/{hash}'),
    ),
    /** Hot-wallet balance per coin below which withdrawals of it queue and the back office is alerted (`ETH=0.5,USDT=1000`). */
    EVM_HOT_WALLET_MIN: z.preprocess(emptyToUndefined, coinMap(/^\d+(\.\d+)?$/, 'a decimal amount').optional()),
    /** Hot-wallet balance per coin above which the back office is asked to move the excess to cold storage. */
    EVM_HOT_WALLET_MAX: z.preprocess(emptyToUndefined, coinMap(/^\d+(\.\d+)?$/, 'a decimal amount').optional()),
    /** Bearer token that `GET /metrics` requires (`Authorization: Bearer <token>`; ≥ 32 characters). */
    METRICS_TOKEN: z.preprocess(
      emptyToUndefined,
      z.string().min(32, { error: 'must be at least 32 characters' }).optional(),
    ),
    /** Serve `/metrics` on this separate port (the monitoring network) instead of the app port. */
    METRICS_PORT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(65535).optional()),
    /** Directory of uploaded files (encrypted at rest) when no S3 bucket is set; default DATA_DIR/uploads. */
    UPLOADS_DIR: z.preprocess(emptyToUndefined, z.string().min(1).optional()),
    /** Secret (≥ 32 characters) from which the AES-256-GCM key of uploaded files is derived. Generated into DATA_DIR when absent; required in production with S3. */
    UPLOADS_ENCRYPTION_KEY: z.preprocess(
      emptyToUndefined,
      z.string().min(32, { error: 'must be at least 32 characters' }).optional(),
    ),
    /** S3-compatible bucket for uploaded files: endpoint URL, bucket, region and keys, all five or none. */
    S3_ENDPOINT: z.preprocess(emptyToUndefined, z.url().optional()),
    S3_BUCKET: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, {
          error: 'must be a bucket name (3–63 lower-case letters, digits, dots, hyphens)',
        })
        .optional(),
    ),
    S3_REGION: z.preprocess(emptyToUndefined, z.string().min(1).optional()),
    S3_ACCESS_KEY_ID: z.preprocess(emptyToUndefined, z.string().min(1).optional()),
    S3_SECRET_ACCESS_KEY: z.preprocess(emptyToUndefined, z.string().min(1).optional()),
    /**
     * Public site (docs/marketing.md): the operator's legal name, registered address and
     * licences shown on /about, the separate exchange and mining sites, and the social accounts of
     * the footer. Unset: the About page marks the legal details as still to be completed, and the
     * links are hidden.
     */
    SITE_LEGAL_ENTITY: z.preprocess(emptyToUndefined, z.string().trim().min(1).max(200).optional()),
    SITE_REGISTERED_ADDRESS: z.preprocess(emptyToUndefined, z.string().trim().min(1).max(300).optional()),
    /** `Authority|Licence|Number` entries separated by `;` (the number may be empty). */
    SITE_LICENCES: z.preprocess(emptyToUndefined, siteLicencesSchema.optional()),
    SITE_EXCHANGE_URL: z.preprocess(emptyToUndefined, httpsUrlSchema.optional()),
    SITE_MINING_URL: z.preprocess(emptyToUndefined, httpsUrlSchema.optional()),
    SITE_SOCIAL_X_URL: z.preprocess(emptyToUndefined, httpsUrlSchema.optional()),
    SITE_SOCIAL_TELEGRAM_URL: z.preprocess(emptyToUndefined, httpsUrlSchema.optional()),
    SITE_SOCIAL_LINKEDIN_URL: z.preprocess(emptyToUndefined, httpsUrlSchema.optional()),
    SITE_SOCIAL_YOUTUBE_URL: z.preprocess(emptyToUndefined, httpsUrlSchema.optional()),
    /** Run the idempotent demo seed at start (never in production). */
    SEED_DEMO: z
      .enum(['true', 'false'])
      .default('true')
      .transform((value) => value === 'true'),
  })
  .superRefine((env, ctx) => {
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
    if (env.NODE_ENV === 'production' && !env.SESSION_SECRET) {
      ctx.addIssue({ code: 'custom', path: ['SESSION_SECRET'], message: 'is required in production' });
    }
    if (Boolean(env.VAPID_PUBLIC_KEY) !== Boolean(env.VAPID_PRIVATE_KEY)) {
      ctx.addIssue({
        code: 'custom',
        path: ['VAPID_PRIVATE_KEY'],
        message: 'and VAPID_PUBLIC_KEY must be set together',
      });
    }
    const xpubCount = [env.WALLET_XPUB_BITCOIN, env.WALLET_XPUB_EVM, env.WALLET_XPUB_TRON].filter(Boolean).length;
    if (xpubCount > 0 && xpubCount < 3) {
      ctx.addIssue({
        code: 'custom',
        path: ['WALLET_XPUB_BITCOIN'],
        message: 'and WALLET_XPUB_EVM and WALLET_XPUB_TRON must be set together',
      });
    }
    if (env.NODE_ENV === 'production') {
      for (const name of [
        'CUSTODY_WEBHOOK_SECRET',
        'WALLET_XPUB_BITCOIN',
        'WALLET_XPUB_EVM',
        'WALLET_XPUB_TRON',
        // The operator's legal details on /about: a public page never shows placeholders in production.
        'SITE_LEGAL_ENTITY',
        'SITE_REGISTERED_ADDRESS',
        'SITE_LICENCES',
      ] as const) {
        if (!env[name]) ctx.addIssue({ code: 'custom', path: [name], message: 'is required in production' });
      }
    }
    if (env.NODE_ENV === 'production' && !env.PRICE_SOURCES) {
      // Production must say where prices come from: replayed history is never a silent default there.
      ctx.addIssue({
        code: 'custom',
        path: ['PRICE_SOURCES'],
        message: 'is required in production (binance,coinbase,kraken, or replay for a demo)',
      });
    }
    if (env.METRICS_PORT !== undefined && env.METRICS_PORT === env.PORT) {
      ctx.addIssue({ code: 'custom', path: ['METRICS_PORT'], message: 'must differ from PORT' });
    }
    const s3Names = ['S3_ENDPOINT', 'S3_BUCKET', 'S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const;
    const s3Missing = s3Names.filter((name) => !env[name]);
    if (s3Missing.length > 0 && s3Missing.length < s3Names.length) {
      for (const name of s3Missing)
        ctx.addIssue({
          code: 'custom',
          path: [name],
          message: 'is required when any S3_* variable is set (all five or none)',
        });
    }
    if (env.NODE_ENV === 'production' && s3Missing.length === 0 && !env.UPLOADS_ENCRYPTION_KEY) {
      // Files in a bucket outlive this machine: their key must not exist only in this machine's data directory.
      ctx.addIssue({
        code: 'custom',
        path: ['UPLOADS_ENCRYPTION_KEY'],
        message: 'is required in production when uploads go to S3',
      });
    }
    if (env.NODE_ENV === 'production' && env.EVM_RPC_URL && !env.CHAIN_VAULT_KEY) {
      ctx.addIssue({
        code: 'custom',
        path: ['CHAIN_VAULT_KEY'],
        message: 'is required in production with EVM_RPC_URL',
      });
    }
    if (env.NODE_ENV === 'production' && !env.PUBLIC_URL) {
      ctx.addIssue({ code: 'custom', path: ['PUBLIC_URL'], message: 'is required in production' });
    }
  });

export type Env = z.infer<typeof configSchema>;

/** The application's configuration after defaults and derived values. */
export interface Config {
  nodeEnv: Env['NODE_ENV'];
  isProduction: boolean;
  port: number;
  host: string;
  publicUrl: string;
  /**
   * Passkeys: the relying-party id and the accepted origins. Each defaults to PUBLIC_URL
   * (its host, its origin) when that is set; when neither is set (development, tests), each request
   * supplies its own (`Host`), so `localhost:5173` and `localhost:3000` both work.
   */
  webauthn: { rpId: string | undefined; origins: string[] | undefined };
  database:
    | { kind: 'pglite'; dataDir: string }
    | { kind: 'memory' }
    | { kind: 'postgres'; url: string; directUrl?: string; readUrl?: string; readMaxLagMs?: number };
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
  /**
   * Uploaded files (platform/uploads): the local directory, the secret of their encryption key
   * (undefined: generated into DATA_DIR/secrets, or memory for a memory database), and the S3
   * bucket that replaces the directory when set.
   */
  uploads: {
    dir: string;
    encryptionKey: string | undefined;
    s3: { endpoint: string; bucket: string; region: string; accessKeyId: string; secretAccessKey: string } | undefined;
  };
  /** Wallet: custody webhook secret and deposit xpubs (generated into DATA_DIR, or memory, when absent outside production). */
  wallet: {
    custodyWebhookSecret: string | undefined;
    xpubs: { bitcoin: string; evm: string; tron: string } | undefined;
    isWhitelistMode: boolean;
    /** USD (decimal string): a withdrawal worth more needs a second operator's approval (LARGE_WITHDRAWAL_USD). */
    largeWithdrawalUsd: string;
  };
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
   * the custody webhook). Per-coin maps are keyed by coin code.
   */
  evm: {
    rpcUrl: string;
    pollIntervalMs: number;
    blocksPerPoll: number;
    confirmations: Record<string, number>;
    tokens: Record<string, string>;
    depositMinimums: Record<string, string>;
    startBlock: number | undefined;
    /** Withdrawals sent from the hot wallet (docs/chain.md "Withdrawals"). */
    withdrawals: {
      /** CHAIN_VAULT_KEY; undefined: generated into DATA_DIR (memory for a memory database). */
      vaultKey: string | undefined;
      /** EVM_MAX_FEE_GWEI as a decimal string of gwei. */
      maxFeeGwei: string;
      replaceAfterMs: number;
      /** EVM_EXPLORER_TX_URL. */
      explorerTxUrl: string;
      /** Decimal amounts per coin code (EVM_HOT_WALLET_MIN, EVM_HOT_WALLET_MAX). */
      hotWalletMin: Record<string, string>;
      hotWalletMax: Record<string, string>;
    };
  } | null;
  /** The public site's operator details and links (SITE_*); undefined/empty: not configured. */
  site: {
    legalEntity: string | undefined;
    registeredAddress: string | undefined;
    licences: { authority: string; licence: string; number: string }[];
    exchangeUrl: string | undefined;
    miningUrl: string | undefined;
    social: {
      x: string | undefined;
      telegram: string | undefined;
      linkedin: string | undefined;
      youtube: string | undefined;
    };
  };
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
  const database: Config['database'] =
    e.DATABASE_URL === undefined
      ? { kind: 'pglite', dataDir: e.DATA_DIR }
      : e.DATABASE_URL === 'memory://'
        ? { kind: 'memory' }
        : {
            kind: 'postgres',
            url: e.DATABASE_URL,
            ...(e.DATABASE_DIRECT_URL ? { directUrl: e.DATABASE_DIRECT_URL } : {}),
            ...(e.DATABASE_READ_URL ? { readUrl: e.DATABASE_READ_URL, readMaxLagMs: e.DATABASE_READ_MAX_LAG_MS } : {}),
          };
  return {
    nodeEnv: e.NODE_ENV,
    isProduction: e.NODE_ENV === 'production',
    port: e.PORT,
    host: e.HOST,
    publicUrl: e.PUBLIC_URL ?? `http://localhost:${e.PORT}`,
    webauthn: {
      rpId: e.WEBAUTHN_RP_ID ?? (e.PUBLIC_URL ? new URL(e.PUBLIC_URL).hostname : undefined),
      origins: e.WEBAUTHN_ORIGINS
        ? e.WEBAUTHN_ORIGINS.split(',').map((origin) => new URL(origin.trim()).origin)
        : e.PUBLIC_URL
          ? [new URL(e.PUBLIC_URL).origin]
          : undefined,
    },
    database,
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
    prices: {
      sources: (e.PRICE_SOURCES ?? ['replay']) as PriceSourceName[],
      maxAgeMs: e.PRICE_MAX_AGE_MS,
      deviationBpsMax: e.PRICE_DEVIATION_BPS_MAX,
      stablecoinBandBps: e.PRICE_STABLECOIN_BAND_BPS,
      httpTimeoutMs: e.PRICE_HTTP_TIMEOUT_MS,
      replay: {
        dataDir: e.PRICE_REPLAY_DATA_DIR,
        startDate: new Date(`${e.PRICE_REPLAY_START}T00:00:00Z`),
        anchorAt: new Date(e.PRICE_REPLAY_ANCHOR_AT),
        realMsPerDay: Math.round(e.PRICE_REPLAY_DAY_MINUTES * 60_000),
      },
    },
    jobsEnabled: e.JOBS_ENABLED,
    metrics: { token: e.METRICS_TOKEN, port: e.METRICS_PORT },
    uploads: {
      dir: e.UPLOADS_DIR ?? join(e.DATA_DIR, 'uploads'),
      encryptionKey: e.UPLOADS_ENCRYPTION_KEY,
      s3:
        e.S3_ENDPOINT && e.S3_BUCKET && e.S3_REGION && e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY
          ? {
              endpoint: e.S3_ENDPOINT,
              bucket: e.S3_BUCKET,
              region: e.S3_REGION,
              accessKeyId: e.S3_ACCESS_KEY_ID,
              secretAccessKey: e.S3_SECRET_ACCESS_KEY,
            }
          : undefined,
    },
    wallet: {
      custodyWebhookSecret: e.CUSTODY_WEBHOOK_SECRET,
      xpubs:
        e.WALLET_XPUB_BITCOIN && e.WALLET_XPUB_EVM && e.WALLET_XPUB_TRON
          ? { bitcoin: e.WALLET_XPUB_BITCOIN, evm: e.WALLET_XPUB_EVM, tron: e.WALLET_XPUB_TRON }
          : undefined,
      isWhitelistMode: e.WITHDRAW_WHITELIST_MODE,
      largeWithdrawalUsd: e.LARGE_WITHDRAWAL_USD,
    },
    cards: { webhookSecret: e.CARD_WEBHOOK_SECRET, vaultKey: e.CARD_VAULT_KEY },
    apiKeyVaultKey: e.API_KEY_VAULT_KEY,
    apiKeyRequestsPerMinute: e.API_KEY_REQUESTS_PER_MINUTE ?? 600,
    idempotencyRetentionMs: (e.IDEMPOTENCY_RETENTION_HOURS ?? 24) * 3_600_000,
    evm:
      e.EVM_RPC_URL === undefined
        ? null
        : {
            rpcUrl: e.EVM_RPC_URL,
            pollIntervalMs: e.EVM_POLL_INTERVAL_MS,
            blocksPerPoll: e.EVM_BLOCKS_PER_POLL,
            confirmations: Object.fromEntries(
              Object.entries(e.EVM_CONFIRMATIONS ?? {}).map(([code, value]) => [code, Number(value)]),
            ),
            tokens: e.EVM_TOKENS ?? {
              USDT: '0xdAC17F958D2ee523a2206206994597C13D831ec7',
              USDC: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
            },
            depositMinimums: { ETH: '0.001', USDT: '1', USDC: '1', ...e.EVM_DEPOSIT_MINIMUMS },
            startBlock: e.EVM_START_BLOCK,
            withdrawals: {
              vaultKey: e.CHAIN_VAULT_KEY,
              maxFeeGwei: e.EVM_MAX_FEE_GWEI,
              replaceAfterMs: e.CHAIN_REPLACE_AFTER_MS,
              explorerTxUrl: e.EVM_EXPLORER_TX_URL,
              hotWalletMin: e.EVM_HOT_WALLET_MIN ?? {},
              hotWalletMax: e.EVM_HOT_WALLET_MAX ?? {},
            },
          },
    site: {
      legalEntity: e.SITE_LEGAL_ENTITY,
      registeredAddress: e.SITE_REGISTERED_ADDRESS,
      licences: e.SITE_LICENCES ?? [],
      exchangeUrl: e.SITE_EXCHANGE_URL,
      miningUrl: e.SITE_MINING_URL,
      social: {
        x: e.SITE_SOCIAL_X_URL,
        telegram: e.SITE_SOCIAL_TELEGRAM_URL,
        linkedin: e.SITE_SOCIAL_LINKEDIN_URL,
        youtube: e.SITE_SOCIAL_YOUTUBE_URL,
      },
    },
  };
}

/** An IPv4/IPv6 address or a CIDR range (`10.0.0.0/8`), as ipaddr.js parses them. */
export function isIpOrCidr(text: string): boolean {
  if (ipaddr.isValid(text)) return true;
  try {
    ipaddr.parseCIDR(text);
    return true;
  } catch {
    return false;
  }
}
