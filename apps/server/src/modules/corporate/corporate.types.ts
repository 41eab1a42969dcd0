import type { DbOrTx, Db } from '../../platform/db/client.ts';
import type { NotifyInput } from '../notices/notices.service.ts';
import type { proApplications } from './corporate.tables.ts';

/** A stored application row. */
export type ProApplicationRow = typeof proApplications.$inferSelect;

/** The company of a user's investor profile, for the application's prefill; nulls when none. */
export interface CompanyProfile {
  companyName: string | null;
  registrationNumber: string | null;
}

/** What the corporate service needs of the database and other modules (by their services). */
export interface CorporateServiceDeps {
  db: Db;
  /** The company named in the user's investor profile (submitted, else the draft) — the kyc module. */
  companyProfileOf(userId: string): Promise<CompanyProfile>;
  /** Users' emails for the back office's list (identity; at most 500 per call). */
  emailsOf(userIds: readonly string[]): Promise<Map<string, string>>;
  /** Message the user in their language, in the caller's transaction (notices). */
  notify(input: NotifyInput, tx: DbOrTx): Promise<unknown>;
  now(): Date;
}
