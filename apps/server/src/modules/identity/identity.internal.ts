/**
 * What the parts of the identity service share, and nothing else imports: the context they are
 * built on (database, options, codes, sealed seeds, session cache, listeners), the user-row look-ups,
 * the withdrawal hold, mail sending and the device description. Not part of the module's surface.
 */
import { createHash } from 'node:crypto';
import type { CaptchaEvent } from '@meridian/contracts/security';
import { and, eq, sql } from 'drizzle-orm';
import type { Clock } from '../../platform/clock/clock.ts';
import type { Db, DbOrTx } from '../../platform/db/client.ts';
import { DomainError } from '../../platform/http/errors.ts';
import type { HumanCheckOptions } from '../../platform/security/human-check.ts';
import { SecretBox } from '../../platform/security/secret-box.ts';
import { VerificationCodes } from './identity.codes.ts';
import { type MailKind, renderMail } from './identity.mails.ts';
import { SessionCache } from './identity.session-cache.ts';
import { users } from './identity.tables.ts';
import type {
  AccountHoldingsChecker,
  IdentityOptions,
  KycStatusSource,
  SecurityEventListener,
} from './identity.types.ts';

/** The state every part of the identity service works on; one per service. */
export interface IdentityContext {
  db: Db;
  /** The app's clock (docs/clock.md). */
  clock: Clock;
  options: IdentityOptions;
  codes: VerificationCodes;
  humanCheck: HumanCheckOptions;
  /** Seals authenticator seeds at rest (`users.mfa_secret`, `users.mfa_pending_secret`). */
  totpSecrets: SecretBox;
  /** Sessions resolved recently by this process (see `resolveSession`). */
  sessionCache: SessionCache;
  holdingsCheckers: AccountHoldingsChecker[];
  securityEventListeners: SecurityEventListener[];
  /** The KYC module's states for `user/self` (`setKycStatusSource`); derived from the level alone without it. */
  kycStatusSource?: KycStatusSource;
}

/** A row of `users`. */
export type UserRow = typeof users.$inferSelect;

export const hours = (count: number) => count * 3_600_000;
export const minutes = (count: number) => count * 60_000;
export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/** The context of one identity service on `db`. */
export function createIdentityContext(db: Db, options: IdentityOptions): IdentityContext {
  return {
    db,
    clock: options.clock,
    options,
    codes: new VerificationCodes(db, options.secret, options.clock, (options.codeResendAfterSeconds ?? 59) * 1000),
    humanCheck: {
      hmacSecret: `${options.secret}:altcha`,
      maxCounter: options.humanCheckMaxCounter,
      challengeTtlMs: minutes(10),
    },
    totpSecrets: new SecretBox(options.secret, 'totp-seed'),
    sessionCache: new SessionCache(),
    holdingsCheckers: [],
    securityEventListeners: [],
  };
}

/**
 * Whether the user has something that answers the `mfa` factor: the authenticator app or at least
 * one passkey (a passkey satisfies `mfa`).
 */
export function hasMfaMethod(user: UserRow): boolean {
  return user.mfaSecret !== null || user.passkeyCount > 0;
}

/** The active account with this (normalised) email, if any. */
export async function findActiveByEmail(ctx: IdentityContext, email: string): Promise<UserRow | undefined> {
  const [row] = await ctx.db
    .select()
    .from(users)
    .where(and(eq(users.email, email), eq(users.status, 'active')))
    .limit(1);
  return row;
}

/** @throws DomainError LOGIN_EXPIRED (101) when the user does not exist or is not active. */
export async function requireUser(ctx: IdentityContext, userId: string): Promise<UserRow> {
  const [row] = await ctx.db
    .select()
    .from(users)
    .where(and(eq(users.id, userId), eq(users.status, 'active')))
    .limit(1);
  if (!row) throw new DomainError('LOGIN_EXPIRED');
  return row;
}

/**
 * Forget this process's cached sessions of `userId` (after a revocation, a status or KYC change;
 * app.ts feeds it the `identity_sessions` notifications of every process), or all of them when
 * no user is given (the notifications may have been missed).
 */
export function forgetSessions(ctx: IdentityContext, userId?: string): void {
  if (userId === undefined) ctx.sessionCache.clear();
  else ctx.sessionCache.forgetUser(userId);
}

/** Hold the user's withdrawals for `durationMs` from now, unless a longer hold already runs. */
export async function extendWithdrawalHold(ctx: IdentityContext, userId: string, durationMs: number): Promise<void> {
  const until = new Date(ctx.clock.now().getTime() + durationMs);
  await ctx.db
    .update(users)
    .set({ withdrawalHoldUntil: sql`GREATEST(COALESCE(${users.withdrawalHoldUntil}, ${until}), ${until})` })
    .where(eq(users.id, userId));
}

/**
 * Queue a mail in `tx` (sent after the commit, see `mail`).
 * @returns the outbox row id to deliver, or null when there is no transport (the row is the delivery).
 */
export async function queueMail(
  ctx: IdentityContext,
  tx: DbOrTx,
  to: string,
  locale: string,
  kind: MailKind,
  params: Record<string, string> & { event?: CaptchaEvent },
  tag?: string,
): Promise<number | null> {
  const { subject, text } = renderMail(kind, locale === 'zh-HK' ? 'zh-HK' : 'en-US', params);
  const queued = await ctx.options.outbox.enqueue({ to, subject, text, tag: tag ?? kind }, tx);
  return queued.isPending ? queued.id : null;
}

/**
 * Queue a mail and try it once at once. Never fails for a mail outage (the delivery job retries).
 * @returns whether it was delivered (always true without a transport).
 */
export async function mail(
  ctx: IdentityContext,
  to: string,
  locale: string,
  kind: MailKind,
  params: Record<string, string> & { event?: CaptchaEvent },
  tag?: string,
): Promise<boolean> {
  const id = await queueMail(ctx, ctx.db, to, locale, kind, params, tag);
  return id === null ? true : ctx.options.outbox.deliver(id);
}

/**
 * Mail a code just issued for (`to`, `event`) (docs/identity.md "Mail delivery"): when the first,
 * immediate attempt fails the code stays valid and queued for retries, but its resend cooldown is
 * released, so the user may ask again at once.
 * @returns the resend wait for the answer: the codes' resend wait (`VerificationCodes.resendAfterSeconds`), or 0 when the mail is not sent yet.
 */
export async function mailCode(
  ctx: IdentityContext,
  to: string,
  locale: string,
  code: string,
  event: CaptchaEvent,
): Promise<number> {
  const isSent = await mail(ctx, to, locale, 'code', { code, event }, event);
  if (isSent) return ctx.codes.resendAfterSeconds;
  await ctx.codes.releaseCooldown('email', to, event);
  return 0;
}

/**
 * A short device description from a user agent: browser · system ("Chrome · Windows"): names only,
 * so that it reads the same inside an en-US or a zh-HK mail, message or session list.
 */
export function describeDevice(userAgent: string | null): string {
  if (!userAgent) return 'Unknown device';
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /Chrome\//.test(userAgent)
      ? 'Chrome'
      : /Firefox\//.test(userAgent)
        ? 'Firefox'
        : /Safari\//.test(userAgent)
          ? 'Safari'
          : userAgent.split(/[\s/]/)[0] || 'Browser';
  const system = /iPhone|iPad/.test(userAgent)
    ? 'iOS'
    : /Android/.test(userAgent)
      ? 'Android'
      : /Windows/.test(userAgent)
        ? 'Windows'
        : /Mac OS X/.test(userAgent)
          ? 'macOS'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : 'Unknown system';
  return `${browser} · ${system}`;
}
