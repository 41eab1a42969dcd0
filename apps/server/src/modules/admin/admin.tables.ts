import { bigserial, boolean, index, integer, jsonb, pgTable, serial, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from '../../platform/db/columns.ts';

/**
 * Back-office operators. One role each: 'support', 'compliance', 'finance',
 * 'admin' (contracts/operators.ts). People sign in with `password_hash` (argon2id PHC) and a TOTP
 * authenticator (`totp_secret`, sealed with the server secret), enrolled at the first sign-in;
 * scripts hold a bearer token whose SHA-256 is `token_hash`. Defined by migration 0004 (then in
 * wallet); sign-in columns and the roles of docs/back-office.md by 0025 ('withdrawals' became 'finance',
 * 'viewer' became 'support').
 */
export const operators = pgTable('operators', {
  id: serial('id').primaryKey(),
  email: text('email').notNull().unique(),
  role: text('role').notNull(),
  /** SHA-256 (hex) of the operator's script token; null when it has none. */
  tokenHash: text('token_hash').unique(),
  isActive: boolean('is_active').notNull().default(true),
  createdAt: createdAt(),
  passwordHash: text('password_hash'),
  /** The confirmed authenticator's seed (base32), sealed (`SecretBox`); null until enrolled. */
  totpSecret: text('totp_secret'),
  /** The seed offered at the first sign-in, sealed, until a code confirms it. */
  totpPendingSecret: text('totp_pending_secret'),
  /** The last TOTP time step accepted: a code is never accepted twice (RFC 6238 §5.2). */
  totpLastStep: integer('totp_last_step'),
  failedSignIns: integer('failed_sign_ins').notNull().default(0),
  lockedUntil: timestamp('locked_until', { withTimezone: true, mode: 'date' }),
  lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true, mode: 'date' }),
});

/**
 * Back-office sessions: a row per sign-in, its cookie token stored as SHA-256. Full only once TOTP
 * passed (`is_totp_passed`); expires 30 minutes after `last_seen_at` and 8 hours after creation
 * (`expires_at`); revoked at sign-out, deactivation or a TOTP reset.
 */
export const adminSessions = pgTable(
  'admin_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    operatorId: integer('operator_id')
      .notNull()
      .references(() => operators.id),
    tokenHash: text('token_hash').notNull().unique(),
    isTotpPassed: boolean('is_totp_passed').notNull().default(false),
    ip: text('ip'),
    userAgent: text('user_agent'),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [index('admin_sessions_operator_idx').on(table.operatorId)],
);

/**
 * The append-only audit log of operator actions: who, when, what, before/after, reason,
 * IP, and the business code answered. A trigger of migration 0025 refuses UPDATE, DELETE and
 * TRUNCATE, so not even the application can rewrite it.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    operatorId: integer('operator_id'),
    operatorEmail: text('operator_email'),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id'),
    before: jsonb('before'),
    after: jsonb('after'),
    reason: text('reason'),
    ip: text('ip'),
    outcomeCode: integer('outcome_code').notNull().default(200),
  },
  (table) => [
    index('audit_log_at_idx').on(table.at),
    index('audit_log_operator_idx').on(table.operatorId, table.at),
    index('audit_log_target_idx').on(table.targetType, table.targetId),
  ],
);
