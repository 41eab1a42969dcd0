import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt } from '../../platform/db/columns.ts';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * An account. `email` is stored trimmed and lower-cased and is unique; a closed
 * account keeps its row (ledger history refers to it) with personal data removed (docs/identity.md).
 * Security configuration flags mirror the `conf` of `GET user/config`; `kycLevel` is 0 none, 1 basic, 2 investor.
 * `frozenAt`/`frozenReason`: an account frozen by the back office.
 */
export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    passwordHash: text('password_hash'),
    /** 'active' | 'closed'. */
    status: text('status').notNull().default('active'),
    locale: text('locale').notNull().default('en-US'),
    mobile: text('mobile'),
    mobileCountry: text('mobile_country'),
    mobileCode: text('mobile_code'),
    kycLevel: integer('kyc_level').notNull().default(0),
    isLoginEmailOn: boolean('is_login_email_on').notNull().default(false),
    isLoginMfaOn: boolean('is_login_mfa_on').notNull().default(false),
    isTradeEmailOn: boolean('is_trade_email_on').notNull().default(true),
    isTradeMfaOn: boolean('is_trade_mfa_on').notNull().default(false),
    isTradeSecurityOn: boolean('is_trade_security_on').notNull().default(false),
    /** Base32 TOTP secret once bound; `mfaPendingSecret` while the user scans it. */
    mfaSecret: text('mfa_secret'),
    mfaPendingSecret: text('mfa_pending_secret'),
    /** Last accepted TOTP time step; a step at or below it is refused (RFC 6238 §5.2). */
    mfaLastStep: bigint('mfa_last_step', { mode: 'number' }),
    securityPasswordHash: text('security_password_hash'),
    securityFailedCount: integer('security_failed_count').notNull().default(0),
    securityLockedUntil: at('security_locked_until'),
    withdrawalHoldUntil: at('withdrawal_hold_until'),
    /**
     * Set by a compliance operator: the account can sign in and see everything
     * but moves no money (withdrawals, swaps) until unfrozen; null when not frozen.
     */
    frozenAt: at('frozen_at'),
    /** The operator's reason for the freeze, kept with it; null when not frozen. */
    frozenReason: text('frozen_reason'),
    /**
     * How many passkeys the account holds (`passkey_credentials`, kept in step in the same
     * transaction): read with the row so the factor checks know synchronously whether a passkey can
     * stand for the `mfa` factor.
     */
    passkeyCount: integer('passkey_count').notNull().default(0),
    createdAt: createdAt(),
    closedAt: at('closed_at'),
  },
  (table) => [uniqueIndex('users_email_key').on(table.email)],
);

/** A server-side session (docs/architecture.md "Request path"). The cookie carries a random token; only its SHA-256 is kept. */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    tokenHash: text('token_hash').notNull(),
    deviceId: text('device_id'),
    ip: text('ip'),
    userAgent: text('user_agent'),
    createdAt: createdAt(),
    lastSeenAt: at('last_seen_at').notNull().defaultNow(),
    expiresAt: at('expires_at').notNull(),
    revokedAt: at('revoked_at'),
  },
  (table) => [uniqueIndex('sessions_token_hash_key').on(table.tokenHash), index('sessions_user_idx').on(table.userId)],
);

/**
 * One-time codes sent by mail or SMS: HMAC-hashed, bound to the address, the event and (when signed
 * in) the user; valid until `expiresAt`, used once, void after 5 wrong tries.
 */
export const verificationCodes = pgTable(
  'verification_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    channel: text('channel').notNull(),
    address: text('address').notNull(),
    event: text('event').notNull(),
    userId: uuid('user_id'),
    codeHash: text('code_hash').notNull(),
    wrongTryCount: integer('wrong_try_count').notNull().default(0),
    createdAt: createdAt(),
    expiresAt: at('expires_at').notNull(),
    usedAt: at('used_at'),
  },
  (table) => [index('verification_codes_lookup_idx').on(table.address, table.event, table.createdAt)],
);

/**
 * Tickets handed out by the first step of login, register and recover: proof that the human check
 * was passed for this address (and, for login, the password). Only the hash is kept.
 */
export const flowTickets = pgTable('flow_tickets', {
  tokenHash: text('token_hash').primaryKey(),
  purpose: text('purpose').notNull(),
  email: text('email').notNull(),
  userId: uuid('user_id'),
  createdAt: createdAt(),
  expiresAt: at('expires_at').notNull(),
  usedAt: at('used_at'),
});

/** Used ALTCHA challenge nonces: each solution is accepted once. Rows past `expiresAt` may be purged. */
export const humanCheckUses = pgTable('human_check_uses', {
  nonce: text('nonce').primaryKey(),
  expiresAt: at('expires_at').notNull(),
  createdAt: createdAt(),
});

/**
 * Failed-login counting per normalised email, whether or not an account exists, so an unknown
 * address and a wrong password answer alike (5 failures in 15 minutes lock 15 minutes).
 */
export const loginThrottles = pgTable('login_throttles', {
  email: text('email').primaryKey(),
  failedCount: integer('failed_count').notNull().default(0),
  windowStartedAt: at('window_started_at').notNull(),
  lockedUntil: at('locked_until'),
});

/** Authenticator recovery codes (10 per binding), stored hashed, each usable once. */
export const mfaRecoveryCodes = pgTable(
  'mfa_recovery_codes',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    codeHash: text('code_hash').notNull(),
    createdAt: createdAt(),
    usedAt: at('used_at'),
  },
  (table) => [primaryKey({ columns: [table.userId, table.codeHash] })],
);

/**
 * The embedded mail and SMS outbox (docs/architecture.md "Outside world"): every message is kept here when no SMTP server
 * or SMS provider is configured, and the dev mailbox (never in production) lists them.
 */
export const outboxMessages = pgTable(
  'outbox_messages',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    channel: text('channel').notNull(),
    recipient: text('recipient').notNull(),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    tag: text('tag'),
    /**
     * LOCAL: no transport, the row is the delivery (dev mailbox); PENDING: to be sent by SMTP;
     * SENT; FAILED: `MAIL_DELIVERY.attemptsMax` attempts failed.
     */
    status: text('status', { enum: ['LOCAL', 'PENDING', 'SENT', 'FAILED'] })
      .notNull()
      .default('LOCAL'),
    attempts: integer('attempts').notNull().default(0),
    /** When a PENDING row is next tried (also the lease of an attempt in progress). */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }),
    lastError: text('last_error'),
    sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (table) => [
    index('outbox_messages_recipient_idx').on(table.recipient, table.id),
    // The delivery job's scan: due pending mail.
    index('outbox_messages_pending_idx')
      .on(table.nextAttemptAt)
      .where(sql`status = 'PENDING'`),
  ],
);

/** The audit log: every sign-in, failure, factor change, check and revocation (kept after account closure). */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id'),
    kind: text('kind').notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    detail: jsonb('detail')
      .$type<Record<string, unknown>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    createdAt: createdAt(),
  },
  (table) => [index('audit_events_user_idx').on(table.userId, table.id)],
);

/**
 * One-time "this wasn't me" links of security emails (docs/freeze-links.md):
 * the token is random (32 bytes) and only its SHA-256 is kept; usable once (`usedAt`), until `expiresAt`.
 */
export const freezeTokens = pgTable(
  'freeze_tokens',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    expiresAt: at('expires_at').notNull(),
    usedAt: at('used_at'),
    usedIp: text('used_ip'),
  },
  (table) => [
    uniqueIndex('freeze_tokens_token_hash_key').on(table.tokenHash),
    index('freeze_tokens_user_idx').on(table.userId),
  ],
);

/**
 * A registered passkey (WebAuthn credential). `credentialId` is the authenticator's id
 * (base64url, unique across accounts), `publicKey` its COSE public key (base64url), `counter` the
 * last signature counter seen (a lower or equal one is refused, unless both are 0), `transports`
 * what the browser reported. `name` is the owner's label.
 */
export const passkeyCredentials = pgTable(
  'passkey_credentials',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    credentialId: text('credential_id').notNull(),
    publicKey: text('public_key').notNull(),
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    transports: jsonb('transports').$type<string[]>().notNull().default([]),
    /** 'singleDevice' | 'multiDevice' as the authenticator data tells. */
    deviceType: text('device_type').notNull(),
    isBackedUp: boolean('is_backed_up').notNull().default(false),
    name: text('name').notNull(),
    createdAt: createdAt(),
    lastUsedAt: at('last_used_at'),
  },
  (table) => [
    uniqueIndex('passkey_credentials_credential_id_key').on(table.credentialId),
    index('passkey_credentials_user_idx').on(table.userId),
  ],
);

/**
 * A WebAuthn challenge handed out and not yet answered: single use (deleted when
 * answered), valid until `expiresAt` (5 minutes). `purpose` is 'register' | 'login' | 'verify';
 * `userId` names the account for 'register' and 'verify' (null for a discoverable sign-in), and
 * `sessionId` the session that asked, when signed in (the answer must come from the same session).
 */
export const passkeyChallenges = pgTable(
  'passkey_challenges',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    challenge: text('challenge').notNull(),
    purpose: text('purpose').notNull(),
    userId: uuid('user_id').references(() => users.id),
    sessionId: uuid('session_id'),
    expiresAt: at('expires_at').notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('passkey_challenges_expires_idx').on(table.expiresAt)],
);
