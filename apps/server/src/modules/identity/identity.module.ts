import type { Clock } from '../../platform/clock/clock.ts';
import type { AppModule } from '../../platform/app-module.ts';
import type { Database } from '../../platform/db/client.ts';
import { createSmtpMailer, type Mailer } from '../../platform/mail/mailer.ts';
import type { JobDefinition } from '../../platform/jobs/scheduler.ts';
import type { SmsSender } from '../../platform/sms/sms.ts';
import { IdentityAuthProvider } from './identity.auth.ts';
import { type OutboxLog, Outbox } from './identity.outbox.ts';
import { identityRoutes } from './identity.routes.ts';
import { createIdentityService, type IdentityService } from './identity.service.ts';
import { SESSION_CHANNEL } from './identity.session-cache.ts';

/** What the identity module needs from `buildApp`. */
export interface IdentityModuleDeps {
  database: Database;
  /** The app's clock (docs/clock.md). */
  clock: Clock;
  sessionSecret: string;
  isProduction: boolean;
  /** Serve the dev mailbox (never true in production). */
  isDevMailboxEnabled: boolean;
  smtpUrl: string | undefined;
  publicUrl: string;
  humanCheckMaxCounter: number;
  /** Passkeys' relying party (config `webauthn`); parts left undefined are taken from each request. */
  webauthn?: { rpId: string | undefined; origins: string[] | undefined };
  /** Seconds between two codes for one address and event (59 outside tests; see config.ts). */
  codeResendAfterSeconds?: number;
  /** Operational log; 'debug' only for the session listener's failure to stop after the database closed. */
  log: (message: string, detail: Record<string, unknown>, level?: 'debug' | 'info' | 'warn') => void;
}

/**
 * The wired module (the shape of every module) and what only identity provides: the session
 * provider of the permission hooks, and the outbox other modules mail through.
 */
export interface IdentityModule extends AppModule<IdentityService> {
  auth: IdentityAuthProvider;
  /** The outbox, for other modules' mails (notices): queued, then sent by SMTP when configured. */
  mailer: Mailer;
  outbox: Outbox;
}

/**
 * Wire the identity module: every mail and SMS goes through the durable outbox; mail is sent by SMTP
 * when `SMTP_URL` is set (by the request at once, then by the delivery job with retries), and stays
 * in the outbox otherwise (as SMS does until a provider adapter is configured). Jobs: the purge of
 * expired codes and counters, and the mail delivery (none without a transport).
 * `start` listens for session changes: every process drops a user's cached sessions when any
 * process revokes one, changes the account's status or KYC level (migration 0010's triggers).
 */
export function createIdentityModule(deps: IdentityModuleDeps): IdentityModule {
  const host = new URL(deps.publicUrl).hostname;
  const transport = deps.smtpUrl ? createSmtpMailer(deps.smtpUrl, `Meridian <no-reply@${host}>`) : undefined;
  // In production only failures are logged (local messages carry codes).
  const log: OutboxLog = deps.isProduction
    ? (message, detail, level) => level === 'warn' && deps.log(message, detail, level)
    : deps.log;
  const outbox = new Outbox(deps.database.db, log, deps.clock, transport);
  const mailer: Mailer = outbox;
  const sms: SmsSender = outbox;
  const service = createIdentityService(deps.database.db, {
    secret: deps.sessionSecret,
    clock: deps.clock,
    humanCheckMaxCounter: deps.humanCheckMaxCounter,
    publicUrl: deps.publicUrl,
    codeResendAfterSeconds: deps.codeResendAfterSeconds,
    outbox,
    sms,
    log: deps.log,
    webauthn: deps.webauthn,
  });
  const auth = new IdentityAuthProvider(service, deps.isProduction);
  let unlistenSessions: (() => Promise<void>) | undefined;
  const jobs: JobDefinition<unknown>[] = [...service.jobs(), ...outbox.jobs()];
  return {
    service,
    routes: identityRoutes({
      identity: service,
      auth,
      outbox,
      isDevMailboxEnabled: deps.isDevMailboxEnabled && !deps.isProduction,
    }),
    jobs,
    start: async () => {
      unlistenSessions = await deps.database.listen(SESSION_CHANNEL, (userId) => service.forgetSessions(userId));
    },
    stop: async () => {
      await unlistenSessions?.().catch((error: unknown) =>
        deps.log('unlisten after the database closed', { err: error }, 'debug'),
      );
    },
    auth,
    mailer,
    outbox,
  };
}
