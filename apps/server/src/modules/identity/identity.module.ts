import type { Database } from '../../platform/db/client.ts';
import { createSmtpMailer, type Mailer } from '../../platform/mail/mailer.ts';
import type { JobDefinition } from '../../platform/jobs/scheduler.ts';
import type { SmsSender } from '../../platform/sms/sms.ts';
import { IdentityAuthProvider } from './identity.auth.ts';
import { type OutboxLog, Outbox } from './identity.outbox.ts';
import type { IdentityRoutesOptions } from './identity.routes.ts';
import { IdentityService } from './identity.service.ts';

/** What the identity module needs from `buildApp`. */
export interface IdentityModuleDeps {
  database: Database;
  sessionSecret: string;
  isProduction: boolean;
  /** Serve the dev mailbox (never true in production). */
  isDevMailboxEnabled: boolean;
  smtpUrl: string | undefined;
  publicUrl: string;
  humanCheckMaxCounter: number;
  log: OutboxLog;
}

/** The wired module: the service other modules call, its auth provider and its routes' options. */
export interface IdentityModule {
  service: IdentityService;
  auth: IdentityAuthProvider;
  routes: IdentityRoutesOptions;
  /** The outbox, for other modules' mails (notices): queued, then sent by SMTP when configured. */
  mailer: Mailer;
  outbox: Outbox;
  /** The mail delivery job (issue 14 item 6); none without a transport. */
  jobs: JobDefinition[];
}

/**
 * Wire the identity module: every mail and SMS goes through the durable outbox; mail is sent by SMTP
 * when `SMTP_URL` is set (by the request at once, then by the delivery job with retries), and stays
 * in the outbox otherwise (as SMS does until a provider adapter is configured).
 */
export function createIdentityModule(deps: IdentityModuleDeps): IdentityModule {
  const host = new URL(deps.publicUrl).hostname;
  const transport = deps.smtpUrl ? createSmtpMailer(deps.smtpUrl, `Meridian <no-reply@${host}>`) : undefined;
  // In production only failures are logged (local messages carry codes).
  const log: OutboxLog = deps.isProduction ? (message, detail, level) => level === 'warn' && deps.log(message, detail, level) : deps.log;
  const outbox = new Outbox(deps.database.db, log, transport);
  const mailer: Mailer = outbox;
  const sms: SmsSender = outbox;
  const service = new IdentityService(deps.database.db, {
    secret: deps.sessionSecret,
    humanCheckMaxCounter: deps.humanCheckMaxCounter,
    outbox,
    sms,
    log: deps.log,
  });
  const auth = new IdentityAuthProvider(service, deps.isProduction);
  return {
    service,
    auth,
    mailer,
    outbox,
    jobs: outbox.jobs(),
    routes: { identity: service, auth, outbox, isDevMailboxEnabled: deps.isDevMailboxEnabled && !deps.isProduction },
  };
}
