import type { Database } from '../../platform/db/client.ts';
import { createSmtpMailer, type Mailer } from '../../platform/mail/mailer.ts';
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
  /** SMTP or the outbox, for other modules' mails (notices). */
  mailer: Mailer;
}

/**
 * Wire the identity module: SMTP mail when `SMTP_URL` is set, the outbox otherwise (and always for
 * SMS until a provider adapter is configured).
 */
export function createIdentityModule(deps: IdentityModuleDeps): IdentityModule {
  const outbox = new Outbox(deps.database.db, deps.isProduction ? () => {} : deps.log);
  const host = new URL(deps.publicUrl).hostname;
  const mailer: Mailer = deps.smtpUrl ? createSmtpMailer(deps.smtpUrl, `Meridian <no-reply@${host}>`) : outbox;
  const sms: SmsSender = outbox;
  const service = new IdentityService(deps.database.db, {
    secret: deps.sessionSecret,
    humanCheckMaxCounter: deps.humanCheckMaxCounter,
    mailer,
    sms,
    log: deps.log,
  });
  const auth = new IdentityAuthProvider(service, deps.isProduction);
  return {
    service,
    auth,
    mailer,
    routes: { identity: service, auth, outbox, isDevMailboxEnabled: deps.isDevMailboxEnabled && !deps.isProduction },
  };
}
