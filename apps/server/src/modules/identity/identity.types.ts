/**
 * The identity module's public types and rules: who calls (`RequestMeta`), the time rules of
 * sign-in and holds, the security events other modules listen to, the closure checkers, the
 * service's options and what a login answers. `identity.service.ts` re-exports them.
 */
import type { Clock } from '../../platform/clock/clock.ts';
import type { LoginContent } from '@meridian/contracts/identity';
import type { Locale } from '@meridian/contracts/locale';
import type { SmsSender } from '../../platform/sms/sms.ts';
import type { Outbox } from './identity.outbox.ts';

/** Who is calling, as the routes see it (no HTTP objects reach the service). */
export interface RequestMeta {
  ip: string | null;
  userAgent: string | null;
  locale: Locale;
  /** The long-lived device cookie, when the browser has one. */
  deviceId: string | null;
  /** The caller's session, when signed in (passkey challenges are bound to it). */
  sessionId?: string | null;
  /** `protocol://host` the request was addressed to: the passkey origin when none is configured. */
  webOrigin?: string | null;
}

/** Time rules of sign-in and holds. */
export const IDENTITY_RULES = {
  loginFailuresMax: 5,
  loginFailureWindowMinutes: 15,
  loginLockoutMinutes: 15,
  securityPasswordFailuresMax: 5,
  securityPasswordLockoutMinutes: 30,
  sessionIdleMinutes: 30,
  sessionAbsoluteHours: 12,
  /** A session's last-seen time is written at most this often. */
  sessionTouchIntervalMs: 60_000,
  holdAfterPasswordResetHours: 24,
  holdAfterContactChangeHours: 72,
  holdAfterFactorChangeHours: 24,
  recoveryCodeCount: 10,
} as const;

/**
 * Audit kinds the user is told about (sign-in from a new device, security setting
 * changed). `login.success` counts only when it came from a new device.
 */
export const SECURITY_EVENT_KINDS: ReadonlySet<string> = new Set([
  'login.success',
  'password.reset',
  'password.changed',
  'config.switched',
  'mfa.bound',
  'mfa.unbound',
  'security_password.set',
  'security_password.changed',
  'mobile.bound',
  'mobile.changed',
  'email.changed',
  'api_key.created',
  'passkey.added',
  'passkey.removed',
]);

/** A security event of one user, for listeners (`addSecurityEventListener`). */
export interface SecurityEvent {
  userId: string;
  /** One of `SECURITY_EVENT_KINDS`. */
  kind: string;
  /** Browser and system from the user agent, e.g. "Chrome · Linux". */
  device: string;
  ip: string | null;
}
/** Told about each security event; a failure is logged and the user's action stands. */
export type SecurityEventListener = (event: SecurityEvent) => Promise<void>;

/**
 * Something other modules hold for a user that forbids closing the account: the ledger (balances),
 * funds (holdings), loans (open loans), cards. Each returns human-readable reasons, empty when none.
 */
export interface AccountHoldingsChecker {
  /** Reasons (in `locale`) to refuse closing `userId`'s account; [] when nothing is held. */
  reasonsToRefuseClosure(userId: string, locale: Locale): Promise<string[]>;
}

/** What `createIdentityService` needs besides the database. */
export interface IdentityOptions {
  /** Key for code/ticket HMACs and the human-check signature (the session secret). */
  secret: string;
  /** The app's clock: expiries, throttles, holds and every time written by identity are read from it. */
  clock: Clock;
  /** Proof-of-work size of the human check (low in tests). */
  humanCheckMaxCounter: number;
  /** Seconds between two codes for one address and event; default 59, less only in tests. */
  codeResendAfterSeconds?: number;
  /** Every mail is queued here, in the transaction of what it reports when there is one. */
  outbox: Outbox;
  sms: SmsSender;
  /** Issuer shown in authenticator apps. */
  totpIssuer?: string;
  /** The web app's origin, for the freeze links of security emails (default http://localhost:3000). */
  publicUrl?: string;
  /** Operational log for failures that must not fail the user's action (listeners). */
  log?: (message: string, detail: Record<string, unknown>) => void;
  /** Passkeys' relying party (config `webauthn`); each part missing is taken from the request. */
  webauthn?: { rpId: string | undefined; origins: string[] | undefined };
}

/** A new session's cookie token and row id. */
export interface NewSession {
  token: string;
  sessionId: string;
  expiresAt: Date;
}

/** Result of a successful login call: the answer, and the session when one was opened. */
export interface LoginResult {
  content: LoginContent;
  session: NewSession | null;
}

/**
 * The identity-verification states `user/self` shows (`status`, `identity.basic`), read from
 * the KYC module's rows: `user` and `investor` as `{ status, message }` with `KYC_STATUS` values (0
 * none, 1 Verified, 2 Under Review, 3 Failed, the reviewer's reason in `message`), `aml` and
 * `qualify` as the same numbers (4 Expired for `qualify`), and the verified name and country of
 * residence (null before basic KYC is verified).
 */
export interface KycSelfStatus {
  user: { status: number; message: string };
  investor: { status: number; message: string };
  aml: number;
  qualify: number;
  basic: { firstName: string; lastName: string; country: string } | null;
}

/** Supplied by the KYC module (`setKycStatusSource`): the states of `userId` at `level`. */
export type KycStatusSource = (userId: string, level: number) => Promise<KycSelfStatus>;
