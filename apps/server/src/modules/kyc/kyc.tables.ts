import type { BasicKycDraft, InvestorDraft } from '@meridian/contracts/kyc';
import { sql } from 'drizzle-orm';
import {
  bigserial,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt } from '../../platform/db/columns.ts';

/**
 * Basic identity verification, one row per user (`status.user`, `identity.basic`).
 * `draft` is what the user is typing (saved on every step, kept across sign-outs); `submitted` is the
 * frozen copy of the last commit, normalised by the rules, with the ids of its documents. `status`
 * follows `KYC_STATUS` (0 none, 1 Verified, 2 Under Review, 3 Failed). `userId` is the identity
 * module's user id (no foreign key across modules, the shared architecture.
 */
export const kycBasic = pgTable(
  'kyc_basic',
  {
    userId: uuid('user_id').primaryKey(),
    status: integer('status').notNull().default(0),
    /** The reviewer's reason when Failed, '' otherwise. */
    message: text('message').notNull().default(''),
    draft: jsonb('draft').$type<BasicKycDraft>().notNull().default({}),
    submitted: jsonb('submitted').$type<Record<string, unknown>>(),
    submittedAt: timestamp('submitted_at', { withTimezone: true, mode: 'date' }),
    /** 1 Hong Kong working day after `submittedAt`. */
    expectedDecisionAt: timestamp('expected_decision_at', { withTimezone: true, mode: 'date' }),
    decidedAt: timestamp('decided_at', { withTimezone: true, mode: 'date' }),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [index('kyc_basic_status_submitted_idx').on(table.status, table.submittedAt)],
);

/**
 * Uploaded identity documents: the bytes are in the upload store (encrypted), this row says whose
 * they are and what they show. Rows are never served by path: only their owner (and a reviewer)
 * reads them, through an authorised route.
 */
export const kycDocuments = pgTable(
  'kyc_documents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').notNull(),
    /** `KYC_DOCUMENT_KINDS`: idFront, idBack, selfie, proofOfAddress. */
    kind: text('kind').notNull(),
    storageKey: text('storage_key').notNull().unique(),
    fileName: text('file_name').notNull(),
    mimeType: text('mime_type').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    sha256: text('sha256').notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('kyc_documents_user_kind_idx').on(table.userId, table.kind, table.createdAt.desc())],
);

/** The audit trail of review decisions: who decided what, when, and why. */
export const kycDecisions = pgTable(
  'kyc_decisions',
  {
    id: bigserial('id', { mode: 'bigint' }).primaryKey(),
    userId: uuid('user_id').notNull(),
    /** What was reviewed: 'basic', 'investor', 'aml', 'qualified' or 'residence'. */
    subject: text('subject').notNull(),
    /** 'approve' or 'reject'. */
    decision: text('decision').notNull(),
    operatorEmail: text('operator_email').notNull(),
    reason: text('reason'),
    /** The submission the decision was about, as it was. */
    submission: jsonb('submission').$type<Record<string, unknown>>(),
    createdAt: createdAt(),
  },
  (table) => [index('kyc_decisions_user_idx').on(table.userId, table.createdAt)],
);

/**
 * The investor profile, one row per user (`status.investor`, `identity.investor`): the
 * same states as `kyc_basic` (`KYC_STATUS`), reviewed like it.
 */
export const kycInvestor = pgTable(
  'kyc_investor',
  {
    userId: uuid('user_id').primaryKey(),
    status: integer('status').notNull().default(0),
    message: text('message').notNull().default(''),
    draft: jsonb('draft').$type<InvestorDraft>().notNull().default({}),
    submitted: jsonb('submitted').$type<Record<string, unknown>>(),
    submittedAt: timestamp('submitted_at', { withTimezone: true, mode: 'date' }),
    expectedDecisionAt: timestamp('expected_decision_at', { withTimezone: true, mode: 'date' }),
    decidedAt: timestamp('decided_at', { withTimezone: true, mode: 'date' }),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [index('kyc_investor_status_submitted_idx').on(table.status, table.submittedAt)],
);

/**
 * Every version of a user's AML questionnaire answers ("keep every version"), with the
 * score of the rule table at the time. The newest row is the current one. `status`: accepted,
 * enhancedReview (high risk) or rejected.
 */
export const kycAmlAnswers = pgTable(
  'kyc_aml_answers',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id').notNull(),
    answers: jsonb('answers').$type<Record<string, unknown>>().notNull(),
    points: integer('points').notNull(),
    level: text('level').notNull(),
    /** The rules that applied, with their points (the reviewer's explanation). */
    matchedRules: jsonb('matched_rules').$type<{ id: string; points: number }[]>().notNull(),
    status: text('status').notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('kyc_aml_answers_user_idx').on(table.userId, table.id.desc())],
);

/**
 * Tax forms (W-9 or W-8BEN-style self-certification). A new form supersedes the one on file
 * (`supersededAt` set); every form is kept.
 */
export const kycTaxForms = pgTable(
  'kyc_tax_forms',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id').notNull(),
    form: text('form').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    supersededAt: timestamp('superseded_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (table) => [index('kyc_tax_forms_user_idx').on(table.userId, table.id.desc())],
);

/**
 * Qualified-investor applications, one row per user: reviewed like KYC; once Verified it
 * holds until `validUntil` (12 months), the user is told 30 days before (`reminderSentAt`), and at
 * the end the status becomes Expired (4) and the level drops back to 2.
 */
export const kycQualified = pgTable(
  'kyc_qualified',
  {
    userId: uuid('user_id').primaryKey(),
    status: integer('status').notNull().default(0),
    message: text('message').notNull().default(''),
    submitted: jsonb('submitted').$type<Record<string, unknown>>(),
    submittedAt: timestamp('submitted_at', { withTimezone: true, mode: 'date' }),
    expectedDecisionAt: timestamp('expected_decision_at', { withTimezone: true, mode: 'date' }),
    decidedAt: timestamp('decided_at', { withTimezone: true, mode: 'date' }),
    validUntil: timestamp('valid_until', { withTimezone: true, mode: 'date' }),
    reminderSentAt: timestamp('reminder_sent_at', { withTimezone: true, mode: 'date' }),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [index('kyc_qualified_status_valid_idx').on(table.status, table.validUntil)],
);

/**
 * Changes of residence reported by a verified user: the new country of residence, address and proof of address, reviewed like
 * basic KYC while the user keeps level 1. `status` follows `KYC_STATUS` (2 Under Review, 1
 * Verified, 3 Failed); at most one is Under Review per user. When one that changes the country is
 * approved, the tax form on file is superseded and a new one is due by `taxFormDueAt` (30 days);
 * `taxFormLapsedAt` records when the daily job dropped level 2 for want of it.
 */
export const kycResidenceChanges = pgTable(
  'kyc_residence_changes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id').notNull(),
    status: integer('status').notNull(),
    /** The reviewer's reason when Failed, '' otherwise. */
    message: text('message').notNull().default(''),
    /** The country of residence on file when the change was reported (ISO 3166-1 alpha-2). */
    previousResidence: text('previous_residence').notNull(),
    /** `{ residence, address, proofOfAddressDate, documents: { proofOfAddress } }`, normalised. */
    submitted: jsonb('submitted').$type<Record<string, unknown>>().notNull(),
    submittedAt: timestamp('submitted_at', { withTimezone: true, mode: 'date' }).notNull(),
    expectedDecisionAt: timestamp('expected_decision_at', { withTimezone: true, mode: 'date' }),
    decidedAt: timestamp('decided_at', { withTimezone: true, mode: 'date' }),
    taxFormDueAt: timestamp('tax_form_due_at', { withTimezone: true, mode: 'date' }),
    taxFormLapsedAt: timestamp('tax_form_lapsed_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [
    index('kyc_residence_changes_status_submitted_idx').on(table.status, table.submittedAt),
    index('kyc_residence_changes_user_idx').on(table.userId, table.id.desc()),
    index('kyc_residence_changes_tax_due_idx').on(table.taxFormDueAt),
    uniqueIndex('kyc_residence_changes_one_open_idx')
      .on(table.userId)
      .where(sql`${table.status} = 2`),
  ],
);

/**
 * Changes of terms announced ahead: the
 * title and body in both languages, the date the change takes effect, and the date it is announced
 * (7 Hong Kong working days before). The daily job `kyc.terms-announcements` messages every active
 * user once on `announceOn` and sets `announcedAt` in the same transaction.
 */
export const termsChanges = pgTable(
  'terms_changes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    titleEn: text('title_en').notNull(),
    titleZh: text('title_zh').notNull(),
    bodyEn: text('body_en').notNull(),
    bodyZh: text('body_zh').notNull(),
    /** Hong Kong date (`YYYY-MM-DD`) from which the changed terms apply. */
    effectiveOn: date('effective_on', { mode: 'string' }).notNull(),
    /** Hong Kong date 7 working days before `effectiveOn`, when users are told. */
    announceOn: date('announce_on', { mode: 'string' }).notNull(),
    announcedAt: timestamp('announced_at', { withTimezone: true, mode: 'date' }),
    /** The operator's email. */
    createdBy: text('created_by').notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    index('terms_changes_due_idx')
      .on(table.announceOn)
      .where(sql`${table.announcedAt} IS NULL`),
  ],
);
