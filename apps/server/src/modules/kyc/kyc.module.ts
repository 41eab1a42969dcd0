import type { Config } from '../../config.ts';
import type { AppModule } from '../../platform/app-module.ts';
import { getHongKongCalendar } from '../../platform/calendar/business-calendar.ts';
import type { JobDefinition } from '../../platform/jobs/scheduler.ts';
import type { Database } from '../../platform/db/client.ts';
import { createUploadStore } from '../../platform/uploads/upload-store.ts';
import type { AdminService } from '../admin/admin.service.ts';
import type { IdentityService } from '../identity/identity.service.ts';
import type { NoticeService } from '../notices/notices.service.ts';
import { kycRoutes } from './kyc.routes.ts';
import { KycService } from './kyc.service.ts';

/** What `buildApp` hands the KYC module. */
export interface KycModuleDeps {
  config: Config;
  database: Database;
  /** Levels (`setKycLevel`, read through `self`) and reviewers' view of emails (`recipientsOf`). */
  identity: IdentityService;
  /** Decisions are messaged to the user (category KYC, also by email). */
  notices: NoticeService;
  /** Operators and their roles (the reviewers' bearer tokens). */
  admin: AdminService;
  /** Whether a country code is in `user/country/list` (the identity module's country list). */
  isKnownCountry: (code: string) => boolean;
}

/**
 * Wire identity verification (issue 15): the upload store of the configuration (local directory or
 * S3, encrypted), the Hong Kong working-day calendar, the user and reviewer routes, and the daily
 * qualified-investor expiry job.
 */
export function createKycModule(deps: KycModuleDeps): AppModule<KycService> {
  const { identity } = deps;
  const service = new KycService({
    db: deps.database.db,
    uploads: createUploadStore(deps.config),
    identity: {
      setKycLevel: (userId, level, db) => identity.setKycLevel(userId, level, db),
      recipientsOf: (userIds) => identity.recipientsOf(userIds),
      kycLevelOf: (userId, db) => identity.kycLevelOf(userId, db),
    },
    notify: (input, tx) => deps.notices.notify(input, tx),
    calendar: getHongKongCalendar(),
    isKnownCountry: deps.isKnownCountry,
  });
  // Daily: qualified-investor reminders 30 days ahead and expiries after 12 months.
  const qualifiedExpiry: JobDefinition<unknown> = {
    name: 'kyc.qualified-expiry',
    periodMs: 86_400_000,
    run: async ({ now, tx }) => void (await service.runQualifiedExpiry(now, tx)),
  };
  return {
    service,
    routes: kycRoutes({
      kyc: service,
      authorizeOperator: (header, roles) => deps.admin.authorizeOperator(header, roles),
    }),
    jobs: [qualifiedExpiry],
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Identity verification (other modules in process, CLIs and tests). */
    kyc: KycService;
  }
}
