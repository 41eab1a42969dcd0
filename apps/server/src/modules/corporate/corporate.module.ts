import type { AppModule } from '../../platform/app-module.ts';
import type { Database } from '../../platform/db/client.ts';
import type { Clock } from '../../platform/clock/clock.ts';
import type { IdentityService } from '../identity/identity.service.ts';
import type { KycService } from '../kyc/kyc.service.ts';
import type { NoticeService } from '../notices/notices.service.ts';
import { corporateRoutes } from './corporate.routes.ts';
import { type CorporateService, createCorporateService } from './corporate.service.ts';
import type { CompanyProfile } from './corporate.types.ts';

/** What `buildApp` hands the corporate module. */
export interface CorporateModuleDeps {
  database: Database;
  /** The investor profile (a company's name and registration number prefill the application). */
  kyc: Pick<KycService, 'investorState'>;
  /** The applicants' emails in the back office. */
  identity: Pick<IdentityService, 'emailsOf'>;
  /** The decision is messaged to the user. */
  notices: Pick<NoticeService, 'notify'>;
  clock: Clock;
}

/** A text field of the investor profile's company part, or null. */
function companyField(company: unknown, field: 'companyName' | 'registrationNumber'): string | null {
  if (typeof company !== 'object' || company === null) return null;
  const value = (company as Record<string, unknown>)[field];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/**
 * PRO accounts for corporate customers (`docs/corporate.md`): the service (also
 * `isApprovedPro` for the cards module's employee cards) and the routes `corporate/pro*` and
 * `admin/pro-applications*`. No jobs; nothing to hold against closing an account.
 */
export function createCorporateModule(deps: CorporateModuleDeps): AppModule<CorporateService> {
  const service = createCorporateService({
    db: deps.database.db,
    companyProfileOf: async (userId): Promise<CompanyProfile> => {
      const state = await deps.kyc.investorState(userId);
      // The submitted profile when there is one, else the saved draft; only a company profile has these.
      const source = state.submitted ?? state.draft;
      const company = source['type'] === 'company' ? source['company'] : undefined;
      return {
        companyName: companyField(company, 'companyName'),
        registrationNumber: companyField(company, 'registrationNumber'),
      };
    },
    emailsOf: (userIds) => deps.identity.emailsOf(userIds),
    notify: (input, tx) => deps.notices.notify(input, tx),
    now: () => deps.clock.now(),
  });
  return { service, routes: corporateRoutes(service), jobs: [] };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** PRO accounts (CLIs and tests). */
    corporate: CorporateService;
  }
}
