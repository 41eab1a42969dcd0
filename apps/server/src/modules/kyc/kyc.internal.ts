import {
  COMPANY_DOCUMENT_KINDS,
  type BasicKycState,
  KYC_STATUS,
  type KycDocument,
  type KycDocumentKind,
  PROOF_OF_ADDRESS_AGE_DAYS_MAX,
  requiredDocumentKinds,
} from '@meridian/contracts/kyc';
import { ID_TYPES, type IdType } from '@meridian/contracts/kyc-rules';
import dayjs from 'dayjs';
import { desc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { BusinessCalendar } from '../../platform/calendar/business-calendar.ts';
import { hongKongDay } from '../../platform/calendar/business-calendar.ts';
import type { Db, DbOrTx } from '../../platform/db/client.ts';
import { DomainError } from '../../platform/http/errors.ts';
import type { UploadStore } from '../../platform/uploads/upload-store.ts';
import type { NotifyInput } from '../notices/notices.service.ts';
import { kycBasic, kycDocuments, kycInvestor } from './kyc.tables.ts';
import type { TermsChanges } from './kyc.terms.ts';

/** Document kinds of the investor profile (a company's), locked by that step rather than by basic KYC. */
export const INVESTOR_DOCUMENT_KINDS: ReadonlySet<KycDocumentKind> = new Set(COMPANY_DOCUMENT_KINDS);

/** What the KYC service needs of the identity module: the verified level, and recipients for the review list. */
export interface KycIdentity {
  /** Record the user's verified level and drop its cached sessions (`IdentityService.setKycLevel`). */
  setKycLevel(userId: string, level: 0 | 1 | 2 | 3, db?: DbOrTx): Promise<void>;
  /** Emails and languages of users (`IdentityService.recipientsOf`). */
  recipientsOf(userIds: readonly string[]): Promise<Map<string, { email: string | null }>>;
  /** The current level of a user (0 when unknown), read on `db` when given. */
  kycLevelOf(userId: string, db?: DbOrTx): Promise<number>;
}

/** Dependencies of `KycService`. */
export interface KycServiceDeps {
  db: Db;
  uploads: UploadStore;
  identity: KycIdentity;
  /** Message the user in their language, in the caller's transaction (notices service; KYC also goes by email). */
  notify: (input: NotifyInput, tx: DbOrTx) => Promise<unknown>;
  /** The Hong Kong working-day calendar (decision due date). */
  calendar: BusinessCalendar;
  /** Whether `code` (ISO 3166-1 alpha-2) is a country of `user/country/list`. */
  isKnownCountry: (code: string) => boolean;
  /** Announcements of changes of terms (exposed as `terms`). */
  terms: TermsChanges;
  /** The app's clock. */
  now: () => Date;
}

/** A basic KYC row. */
export type BasicRow = typeof kycBasic.$inferSelect;
type DocumentRow = typeof kycDocuments.$inferSelect;

/** A document row as its owner sees it. */
export function toDocument(row: DocumentRow): KycDocument {
  return {
    id: row.id,
    kind: row.kind as KycDocumentKind,
    fileName: row.fileName,
    mimeType: row.mimeType,
    sizeBytes: row.sizeBytes,
    createdAt: row.createdAt.toISOString(),
  };
}

/** A custom zod issue naming `field` with a validation message key (and its placeholders). */
export function fieldIssue(
  field: string,
  messageKey: string,
  params?: Record<string, string | number>,
): z.core.$ZodIssue {
  return {
    code: 'custom',
    path: [field],
    message: messageKey,
    input: undefined,
    ...(params && { params }),
  } as z.core.$ZodIssue;
}

/** Whether `value` is one of the ID types (`ID_TYPES`). */
export const isIdType = (value: unknown): value is IdType =>
  typeof value === 'string' && (ID_TYPES as readonly string[]).includes(value);

/** The investor profile row of `userId`, if any. */
export async function investorRow(
  ctx: KycContext,
  userId: string,
): Promise<typeof kycInvestor.$inferSelect | undefined> {
  const [row] = await ctx.db.select().from(kycInvestor).where(eq(kycInvestor.userId, userId)).limit(1);
  return row;
}

/** The basic KYC row of `userId`, if any. */
export async function basicRow(ctx: KycContext, userId: string): Promise<BasicRow | undefined> {
  const [row] = await ctx.db.select().from(kycBasic).where(eq(kycBasic.userId, userId)).limit(1);
  return row;
}

/** The issue of a proof-of-address date (`YYYY-MM-DD`) in the future or older than 90 days at `now` (HK date), if any. */
export function proofOfAddressDateIssue(proofDate: string | undefined, now: Date): z.core.$ZodIssue | null {
  if (!proofDate || !dayjs(proofDate, 'YYYY-MM-DD', true).isValid()) return null;
  const today = hongKongDay(now);
  const oldest = dayjs(today).subtract(PROOF_OF_ADDRESS_AGE_DAYS_MAX, 'day').format('YYYY-MM-DD');
  return proofDate > today || proofDate < oldest
    ? fieldIssue('proofOfAddressDate', 'validation.proofOfAddressOld', { days: PROOF_OF_ADDRESS_AGE_DAYS_MAX })
    : null;
}

/** @throws DomainError KYC_LOCKED when `row` is Under Review or Verified (its fields are frozen). */
export function assertEditable(row: { status: number } | undefined): void {
  if (row && (row.status === KYC_STATUS.UNDER_REVIEW || row.status === KYC_STATUS.VERIFIED))
    throw new DomainError('KYC_LOCKED');
}

/** The newest document of each kind. */
export async function currentDocuments(ctx: KycContext, userId: string): Promise<Map<KycDocumentKind, DocumentRow>> {
  const rows = await ctx.db
    .select()
    .from(kycDocuments)
    .where(eq(kycDocuments.userId, userId))
    .orderBy(desc(kycDocuments.createdAt), desc(kycDocuments.id));
  const byKind = new Map<KycDocumentKind, DocumentRow>();
  for (const row of rows) if (!byKind.has(row.kind as KycDocumentKind)) byKind.set(row.kind as KycDocumentKind, row);
  return byKind;
}

/** `user/info` of `userId` from its basic KYC `row`: draft, review state and the current documents. */
export async function stateOf(ctx: KycContext, userId: string, row: BasicRow | undefined): Promise<BasicKycState> {
  const documents = await currentDocuments(ctx, userId);
  const idType = row?.draft.idType;
  return {
    status: row?.status ?? KYC_STATUS.NONE,
    message: row?.message ?? '',
    draft: row?.draft ?? {},
    submitted: row?.submitted ?? null,
    submittedAt: row?.submittedAt?.toISOString() ?? null,
    expectedDecisionAt: row?.expectedDecisionAt?.toISOString() ?? null,
    documents: [...documents.values()].map(toDocument),
    requiredDocuments: requiredDocumentKinds(isIdType(idType) ? idType : 'nationalId'),
  };
}

/** The context every part of the KYC service shares (imported only inside the module). */
export interface KycContext {
  db: Db;
  /** The app's clock. */
  now: () => Date;
  deps: KycServiceDeps;
  /** Announcements of changes of terms, 7 Hong Kong working days ahead. */
  terms: TermsChanges;
}
