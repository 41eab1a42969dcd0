import type { Clock } from '../../platform/clock/clock.ts';
import type { Config } from '../../config.ts';
import type { AppModule } from '../../platform/app-module.ts';
import { getHongKongCalendar } from '../../platform/calendar/business-calendar.ts';
import type { JobDefinition } from '../../platform/jobs/scheduler.ts';
import type { Database } from '../../platform/db/client.ts';
import { createUploadStore } from '../../platform/uploads/upload-store.ts';
import type { IdentityService } from '../identity/identity.service.ts';
import type { NoticeService } from '../notices/notices.service.ts';
import { kycRoutes } from './kyc.routes.ts';
import { createKycService, type KycService } from './kyc.service.ts';
import { TermsChanges } from './kyc.terms.ts';

/** What `buildApp` hands the KYC module. */
export interface KycModuleDeps {
  config: Config;
  database: Database;
  /** The app's clock (docs/clock.md). */
  clock: Clock;
  /** Levels (`setKycLevel`, read through `self`), reviewers' view of emails (`recipientsOf`), active users. */
  identity: IdentityService;
  /** Decisions and announcements are messaged to users (category KYC also by email). */
  notices: NoticeService;
  /** Whether a country code is in `user/country/list` (the identity module's country list). */
  isKnownCountry: (code: string) => boolean;
}

/**
 * Wire identity verification: the upload store of the configuration (local directory or
 * S3, encrypted), the Hong Kong working-day calendar, the user and reviewer routes, `user/self`'s
 * verification states (handed to the identity module), and the daily jobs: qualified-investor
 * expiry, the 30-day tax-form deadline after a change of country, and announcements of changes of
 * terms.
 */
export function createKycModule(deps: KycModuleDeps): AppModule<KycService> {
  const { identity } = deps;
  const calendar = getHongKongCalendar();
  const terms = new TermsChanges({
    db: deps.database.db,
    calendar,
    activeUserIdsAfter: (afterId, limit, db) => identity.activeUserIdsAfter(afterId, limit, db),
    notifyMany: (inputs, tx) => deps.notices.notifyMany(inputs, tx),
    now: () => deps.clock.now(),
  });
  const service = createKycService({
    db: deps.database.db,
    uploads: createUploadStore(deps.config, deps.clock),
    identity: {
      setKycLevel: (userId, level, db) => identity.setKycLevel(userId, level, db),
      recipientsOf: (userIds) => identity.recipientsOf(userIds),
      kycLevelOf: (userId, db) => identity.kycLevelOf(userId, db),
    },
    notify: (input, tx) => deps.notices.notify(input, tx),
    calendar,
    isKnownCountry: deps.isKnownCountry,
    terms,
    now: () => deps.clock.now(),
  });
  identity.setKycStatusSource((userId, level) => service.selfStatus(userId, level));
  const daily = (name: string, run: JobDefinition<unknown>['run']): JobDefinition<unknown> => ({
    name,
    periodMs: 86_400_000,
    run,
  });
  return {
    service,
    routes: kycRoutes({
      kyc: service,
    }),
    jobs: [
      // Qualified-investor reminders 30 days ahead and expiries after 12 months.
      daily('kyc.qualified-expiry', async ({ now, tx }) => void (await service.runQualifiedExpiry(now, tx))),
      // Level 2 lapses when no new tax form follows a change of country within 30 days.
      daily('kyc.tax-form-deadline', async ({ now, tx }) => void (await service.runTaxFormDeadlines(now, tx))),
      // Changes of terms announced to every active user on their date, once.
      daily('kyc.terms-announcements', async ({ now, tx }) => void (await terms.runAnnouncements(now, tx))),
    ],
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Identity verification (other modules in process, CLIs and tests). */
    kyc: KycService;
  }
}
