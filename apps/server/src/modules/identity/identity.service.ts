/**
 * The identity module's public face: accounts, human check, email/SMS codes, login with
 * optional second factors, sessions, security configuration, authenticator, trading password,
 * mobile, sensitive-action checks, withdrawal holds, account closure and the audit log. Other
 * modules import only this file and `identity.types.ts`. The service is composed of parts, each in
 * its own file, sharing one context (`identity.internal.ts`):
 *   sessions         identity.sessions.ts         human check, login, sessions, logout
 *   factors          identity.factors.ts          sensitive-action guard, factor checks, security configuration
 *   factor settings  identity.factor-settings.ts  authenticator, security code, mobile
 *   account          identity.account.ts          register, recover, password, profile, look-ups
 *   account changes  identity.account-changes.ts  email change, holds, KYC level, closure
 *   audit            identity.audit.ts            audit log, security-event listeners, retention
 *   operator         identity.operator.ts         back office: search, view, freeze, authenticator reset
 *   freeze links     identity.freeze-links.ts     one-time "this wasn't me" links of security mails
 */
import { and, isNull, lt, or } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.ts';
import type { JobDefinition } from '../../platform/jobs/scheduler.ts';
import { createAccountChangeService } from './identity.account-changes.ts';
import { createAccountService } from './identity.account.ts';
import { createAuditService, purgeExpiredAudit } from './identity.audit.ts';
import { createFactorSettingsService } from './identity.factor-settings.ts';
import { createFactorService } from './identity.factors.ts';
import { createFreezeLinkService } from './identity.freeze-links.ts';
import { createIdentityContext } from './identity.internal.ts';
import { createPasskeyService } from './identity.passkeys.ts';
import { createOperatorAccountService } from './identity.operator.ts';
import { createSessionService } from './identity.sessions.ts';
import {
  flowTickets,
  humanCheckUses,
  loginThrottles,
  passkeyChallenges,
  verificationCodes,
} from './identity.tables.ts';
import type { IdentityOptions } from './identity.types.ts';

export { AUDIT_PURGE_BATCH_ROWS, AUDIT_RETENTION_YEARS_AFTER_CLOSURE, purgeExpiredAudit } from './identity.audit.ts';
export { describeDevice } from './identity.internal.ts';
export type { FreezeOutcome } from './identity.freeze-links.ts';
export type { OperatorActor, OperatorUserRow, OperatorUserSearch, OperatorUserView } from './identity.operator.ts';
export {
  type AccountHoldingsChecker,
  IDENTITY_RULES,
  type IdentityOptions,
  type LoginResult,
  type NewSession,
  type RequestMeta,
  SECURITY_EVENT_KINDS,
  type SecurityEvent,
  type SecurityEventListener,
} from './identity.types.ts';

/**
 * Housekeeping, hourly: drop used-up human-check nonces past their expiry, flow tickets and codes
 * older than two days (the daily send cap looks back one day), and stale login counters. Daily: the
 * audit-log retention rule (`purgeExpiredAudit`).
 */
function identityJobs(): JobDefinition[] {
  return [
    {
      name: 'identity.purge-expired',
      periodMs: 3_600_000,
      run: async ({ tx, now }) => {
        const twoDaysAgo = new Date(now.getTime() - 2 * 86_400_000);
        // Human-check nonces are dated by the machine's clock (platform/security/human-check.ts); in
        // production it is the app's, and a test clock set ahead only forgets used nonces sooner.
        await tx.delete(humanCheckUses).where(lt(humanCheckUses.expiresAt, now));
        await tx.delete(passkeyChallenges).where(lt(passkeyChallenges.expiresAt, now));
        await tx.delete(flowTickets).where(lt(flowTickets.expiresAt, twoDaysAgo));
        await tx.delete(verificationCodes).where(lt(verificationCodes.createdAt, twoDaysAgo));
        await tx
          .delete(loginThrottles)
          .where(
            and(
              lt(loginThrottles.windowStartedAt, twoDaysAgo),
              or(isNull(loginThrottles.lockedUntil), lt(loginThrottles.lockedUntil, now)),
            ),
          );
      },
    },
    {
      name: 'identity.audit-retention',
      periodMs: 86_400_000,
      run: async ({ tx, now }) => {
        await purgeExpiredAudit(tx, now);
      },
    },
  ];
}

/**
 * The identity service on `db`: every part's methods on one object (their names do not overlap),
 * plus `codes` (the one-time codes and flow tickets) and `jobs()` (the module's periodic work).
 */
export function createIdentityService(db: Db, options: IdentityOptions) {
  const ctx = createIdentityContext(db, options);
  return {
    codes: ctx.codes,
    ...createSessionService(ctx),
    ...createFactorService(ctx),
    ...createFactorSettingsService(ctx),
    ...createAccountService(ctx),
    ...createAccountChangeService(ctx),
    ...createAuditService(ctx),
    ...createOperatorAccountService(ctx),
    ...createFreezeLinkService(ctx),
    ...createPasskeyService(ctx),
    jobs: identityJobs,
  };
}

/** The identity service: what `createIdentityService` returns. */
export type IdentityService = ReturnType<typeof createIdentityService>;
