import {
  AML_STATUS_AS_KYC_STATUS,
  AML_STATUSES,
  type KycReviewStep,
  KYC_REVIEW_STEPS,
  type OpsKycQueueItem,
  type ResidenceChangeInput,
  type ResidenceChangeState,
  type AmlAnswersInput,
  type AmlState,
  type AmlStatus,
  COMPANY_DOCUMENT_KINDS,
  type InvestorDraft,
  type InvestorState,
  investorSubmissionSchema,
  percentHundredths,
  QUALIFIED_REMINDER_DAYS,
  QUALIFIED_VALIDITY_MONTHS,
  type QualifyState,
  type QualifySubmission,
  TAX_CHANGE_REPORT_DAYS,
  type TaxFormInput,
  type TaxState,
  type BasicKycDraft,
  type BasicKycState,
  basicKycSubmissionSchema,
  KYC_DOCUMENT_KINDS,
  KYC_REVIEW_WORKING_DAYS,
  KYC_STATUS,
  type KycDocument,
  type KycDocumentKind,
  type OpsKycSubmission,
  PROOF_OF_ADDRESS_AGE_DAYS_MAX,
  requiredDocumentKinds,
} from '@meridian/contracts/kyc';
import { ID_TYPES, type IdType } from '@meridian/contracts/kyc-rules';
import { type Page, totalPages } from '@meridian/contracts/pagination';
import dayjs from 'dayjs';
import { and, asc, desc, eq, gt, inArray, isNotNull, isNull, lte, notExists, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { BusinessCalendar } from '../../platform/calendar/business-calendar.ts';
import { hongKongDay } from '../../platform/calendar/business-calendar.ts';
import type { Db, DbOrTx, Tx } from '../../platform/db/client.ts';
import { DomainError, FieldError } from '../../platform/http/errors.ts';
import { RequestValidationError } from '../../platform/http/validation.ts';
import { UPLOADS_FIELD } from '../../platform/uploads/multipart-reader.ts';
import type { UploadStore } from '../../platform/uploads/upload-store.ts';
import type { ValidatedUpload } from '../../platform/uploads/upload-rules.ts';
import type { NotifyInput } from '../notices/notices.service.ts';
import { type AmlRiskLevel, scoreAmlAnswers } from './kyc.aml-scoring.ts';
import {
  kycAmlAnswers,
  kycBasic,
  kycDecisions,
  kycDocuments,
  kycInvestor,
  kycQualified,
  kycResidenceChanges,
  kycTaxForms,
} from './kyc.tables.ts';
import type { KycSelfStatus } from '../identity/identity.types.ts';
import type { TermsChanges } from './kyc.terms.ts';

/** Document kinds of the investor profile (a company's), locked by that step rather than by basic KYC. */
const INVESTOR_DOCUMENT_KINDS: ReadonlySet<KycDocumentKind> = new Set(COMPANY_DOCUMENT_KINDS);

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

type BasicRow = typeof kycBasic.$inferSelect;
type DocumentRow = typeof kycDocuments.$inferSelect;

/** A document row as its owner sees it. */
function toDocument(row: DocumentRow): KycDocument {
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
function fieldIssue(field: string, messageKey: string, params?: Record<string, string | number>): z.core.$ZodIssue {
  return {
    code: 'custom',
    path: [field],
    message: messageKey,
    input: undefined,
    ...(params && { params }),
  } as z.core.$ZodIssue;
}

/** A tax form as shown back: US and foreign TINs masked but for their last 4 characters. */
function maskTaxData(data: Record<string, unknown>): Record<string, unknown> {
  const mask = (value: unknown) =>
    typeof value === 'string' && value.length > 4 ? `${'*'.repeat(value.length - 4)}${value.slice(-4)}` : value;
  const residences = Array.isArray(data.residences)
    ? (data.residences as Record<string, unknown>[]).map((item) => ({ ...item, tin: mask(item.tin) }))
    : undefined;
  return { ...data, ...(data.tin !== undefined && { tin: mask(data.tin) }), ...(residences && { residences }) };
}

const isIdType = (value: unknown): value is IdType =>
  typeof value === 'string' && (ID_TYPES as readonly string[]).includes(value);

/** Most tax-form deadlines one daily run handles (the rest wait for the next run). */
const TAX_DEADLINE_BATCH_MAX = 500;

/** Mark the tax form on file of `userId` superseded at `now`. @returns whether there was one. */
async function supersedeTaxForm(tx: DbOrTx, userId: string, now: Date): Promise<boolean> {
  const superseded = await tx
    .update(kycTaxForms)
    .set({ supersededAt: now })
    .where(and(eq(kycTaxForms.userId, userId), isNull(kycTaxForms.supersededAt)))
    .returning({ id: kycTaxForms.id });
  return superseded.length > 0;
}

/** A row of the review queue's union: the user, the step, and the row id of steps with several rows per user. */
interface QueueRow {
  user_id: string;
  step: KycReviewStep;
  /** `kyc_aml_answers.id` or `kyc_residence_changes.id` (bigint, as the driver returns it); null otherwise. */
  ref: string | number | null;
}

/** The rows of a raw `db.execute` answer (both drivers return `{ rows }`). */
function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/**
 * The queue's part for one step: `user_id, step, submitted_at, ref` of the rows of `status`
 * (`KYC_STATUS`), or null when the step has no such status (AML answers know 1, 2 and 3 only).
 */
function queueSelect(step: KycReviewStep, status: number): SQL | null {
  switch (step) {
    case 'basic':
      return sql`SELECT user_id, 'basic' AS step, submitted_at, NULL::bigint AS ref FROM ${kycBasic} WHERE status = ${status}`;
    case 'investor':
      return sql`SELECT user_id, 'investor' AS step, submitted_at, NULL::bigint AS ref FROM ${kycInvestor} WHERE status = ${status}`;
    case 'qualified':
      return sql`SELECT user_id, 'qualified' AS step, submitted_at, NULL::bigint AS ref FROM ${kycQualified} WHERE status = ${status}`;
    case 'residence':
      return sql`SELECT user_id, 'residence' AS step, submitted_at, id AS ref FROM ${kycResidenceChanges} WHERE status = ${status}`;
    case 'aml': {
      const amlStatus = AML_STATUSES.find((item) => AML_STATUS_AS_KYC_STATUS[item] === status);
      if (!amlStatus) return null;
      // The current version only: no newer answers of the same user.
      return sql`SELECT a.user_id, 'aml' AS step, a.created_at AS submitted_at, a.id AS ref FROM ${kycAmlAnswers} a
        WHERE a.status = ${amlStatus}
          AND NOT EXISTS (SELECT 1 FROM ${kycAmlAnswers} b WHERE b.user_id = a.user_id AND b.id > a.id)`;
    }
  }
}

/** The steps' names in messages. */
const STEP_NAMES = {
  investor: { 'en-US': 'Investor profile', 'zh-HK': '投資者資料' },
  aml: { 'en-US': 'AML questionnaire', 'zh-HK': '反洗錢問卷' },
  qualified: { 'en-US': 'Qualified investor application', 'zh-HK': '合格投資者申請' },
  residence: { 'en-US': 'Change of residence', 'zh-HK': '居住地變更' },
} as const;

/** Where the web takes a user to submit a step again. */
const STEP_ROUTES: Record<KycReviewStep, string> = {
  basic: '/identity/basic',
  investor: '/identity/investor',
  aml: '/identity/aml',
  qualified: '/identity/qualify',
  residence: '/identity/residence',
};

/** The message telling the user of a decision on `step` (KYC category: also sent by email). */
function decisionNotice(step: KycReviewStep, userId: string, isApproved: boolean, reason: string): NotifyInput {
  if (step === 'basic')
    return isApproved
      ? {
          userId,
          category: 'KYC',
          title: { 'en-US': 'Identity verified', 'zh-HK': '身份認證已通過' },
          body: {
            'en-US':
              'Your identity verification was approved. Withdrawals, exchange and card applications are now open to you.',
            'zh-HK': '你的身份認證已獲批准，現可使用提幣、兌換及申請卡片。',
          },
          link: '/identity',
        }
      : {
          userId,
          category: 'KYC',
          title: { 'en-US': 'Identity verification failed', 'zh-HK': '身份認證未通過' },
          body: {
            'en-US': 'Your identity verification was not approved: {reason}. Please correct it and submit again.',
            'zh-HK': '你的身份認證未獲批准：{reason}。請修正後重新提交。',
          },
          params: { reason },
          link: STEP_ROUTES.basic,
        };
  const what = STEP_NAMES[step];
  return isApproved
    ? {
        userId,
        category: 'KYC',
        title: { 'en-US': `${what['en-US']} approved`, 'zh-HK': `${what['zh-HK']}已獲批准` },
        body: {
          'en-US': `Your ${what['en-US'].toLowerCase()} was approved.`,
          'zh-HK': `你的${what['zh-HK']}已獲批准。`,
        },
        link: '/identity',
      }
    : {
        userId,
        category: 'KYC',
        title: { 'en-US': `${what['en-US']} not approved`, 'zh-HK': `${what['zh-HK']}未獲批准` },
        body: {
          'en-US': `Your ${what['en-US'].toLowerCase()} was not approved: {reason}. Please correct it and submit again.`,
          'zh-HK': `你的${what['zh-HK']}未獲批准：{reason}。請修正後重新提交。`,
        },
        params: { reason },
        link: STEP_ROUTES[step],
      };
}

/**
 * Basic identity verification (`user/info`, `user/commit`; docs/kyc.md): the
 * draft, the documents, the submission and its review. States (`KYC_STATUS`): 0 none → 2 Under
 * Review (commit) → 1 Verified (approve, level 1) or 3 Failed (reject with a reason) → 2 again
 * (the user fixes the draft and commits). Under Review and Verified freeze the fields.
 */
export class KycService {
  private readonly db: Db;
  private readonly now: () => Date;
  /** Announcements of changes of terms, 7 Hong Kong working days ahead. */
  readonly terms: TermsChanges;

  constructor(private readonly deps: KycServiceDeps) {
    this.db = deps.db;
    this.terms = deps.terms;
    this.now = deps.now;
  }

  // ------------------------------------------------------------------ user side

  /** `GET user/info`: the draft, the review state and the current documents. */
  async state(userId: string): Promise<BasicKycState> {
    const row = await this.row(userId);
    return this.stateOf(userId, row);
  }

  /**
   * `POST user/info`: merge `draft` into the saved draft (a field sent empty clears it).
   * @throws DomainError KYC_LOCKED while Under Review or once Verified.
   */
  async saveDraft(userId: string, draft: BasicKycDraft): Promise<BasicKycState> {
    const row = await this.row(userId);
    this.assertEditable(row);
    const merged: BasicKycDraft = { ...(row?.draft ?? {}), ...draft };
    await this.db
      .insert(kycBasic)
      .values({ userId, draft: merged, updatedAt: this.now() })
      .onConflictDoUpdate({ target: kycBasic.userId, set: { draft: merged, updatedAt: this.now() } });
    return this.state(userId);
  }

  /**
   * Store uploaded documents, each under its kind (the multipart field name); the newest of a kind
   * is the current one. All files are checked before any is stored: one bad file stores nothing.
   * @throws FieldError `files` (validation.documentKind) naming a file with an unknown kind;
   *   DomainError KYC_LOCKED while the step a kind belongs to (basic KYC, the investor profile, the
   *   qualified-investor application) is Under Review or Verified — except a verified user's new
   *   `proofOfAddress` for a change of residence, while none is Under Review.
   */
  async addDocuments(userId: string, files: readonly ValidatedUpload[]): Promise<KycDocument[]> {
    const stranger = files.find((file) => !(KYC_DOCUMENT_KINDS as readonly string[]).includes(file.fieldName));
    if (stranger) throw new FieldError(UPLOADS_FIELD, 'validation.documentKind', { file: stranger.fileName });
    // Each kind is locked by its own step: a verified basic KYC does not stop the company documents
    // of the investor profile nor the evidence of a qualified-investor application.
    const kinds = new Set(files.map((file) => file.fieldName as KycDocumentKind));
    const basicKinds = [...kinds].filter((kind) => !INVESTOR_DOCUMENT_KINDS.has(kind) && kind !== 'qualifiedEvidence');
    if (basicKinds.length > 0) {
      const row = await this.row(userId);
      // A verified user may upload a new proof of address for a change of residence (none Under Review).
      const isResidenceProof =
        row?.status === KYC_STATUS.VERIFIED &&
        basicKinds.every((kind) => kind === 'proofOfAddress') &&
        !(await this.openResidenceChange(userId));
      if (!isResidenceProof) this.assertEditable(row);
    }
    if ([...kinds].some((kind) => INVESTOR_DOCUMENT_KINDS.has(kind)))
      this.assertEditable(await this.investorRow(userId));
    if (kinds.has('qualifiedEvidence')) {
      const [qualified] = await this.db.select().from(kycQualified).where(eq(kycQualified.userId, userId)).limit(1);
      this.assertEditable(qualified);
    }
    const stored = await this.deps.uploads.saveAll(files);
    try {
      const rows = await this.db
        .insert(kycDocuments)
        // Dated by the app's clock: a proof of address counts only when uploaded after the last decision.
        .values(
          stored.map((item, index) => ({ userId, kind: files[index]!.fieldName, ...item, createdAt: this.now() })),
        )
        .returning();
      return rows.map(toDocument);
    } catch (error) {
      await Promise.allSettled(stored.map((item) => this.deps.uploads.remove(item.storageKey)));
      throw error;
    }
  }

  /**
   * The bytes of one of `userId`'s documents.
   * @throws DomainError NOT_FOUND when the document is someone else's or does not exist (the same answer).
   */
  async readDocument(
    userId: string | null,
    documentId: string,
  ): Promise<{ bytes: Buffer; mimeType: string; fileName: string }> {
    const condition =
      userId === null
        ? eq(kycDocuments.id, documentId)
        : and(eq(kycDocuments.id, documentId), eq(kycDocuments.userId, userId));
    const [row] = await this.db.select().from(kycDocuments).where(condition).limit(1);
    const bytes = row ? await this.deps.uploads.read(row.storageKey) : null;
    if (!row || !bytes) throw new DomainError('NOT_FOUND');
    return { bytes, mimeType: row.mimeType, fileName: row.fileName };
  }

  /**
   * `POST user/commit`: check the saved draft against every rule (through
   * `basicKycSubmissionSchema`; countries of the list; proof of address dated within 90 days; every
   * document the ID type needs), then freeze it, move to Under Review and record when a decision is
   * due (1 Hong Kong working day later). Nothing changes when a rule fails.
   * @throws RequestValidationError (422) naming every failing field; DomainError KYC_LOCKED while
   *   Under Review or once Verified (a second commit).
   */
  async commit(userId: string): Promise<BasicKycState> {
    const now = this.now();
    const today = hongKongDay(now);
    const row = await this.row(userId);
    this.assertEditable(row);
    const draft = row?.draft ?? {};
    const issues: z.core.$ZodIssue[] = [];
    const parsed = basicKycSubmissionSchema(() => today).safeParse(draft);
    if (!parsed.success) issues.push(...parsed.error.issues);
    for (const field of ['nationality', 'residence'] as const) {
      const code = draft[field];
      if (code && /^[A-Z]{2}$/.test(code) && !this.deps.isKnownCountry(code))
        issues.push(fieldIssue(field, 'validation.country'));
    }
    const proofIssue = this.proofOfAddressDateIssue(draft.proofOfAddressDate, now);
    if (proofIssue) issues.push(proofIssue);
    const documents = await this.currentDocuments(userId);
    const needed = isIdType(draft.idType) ? requiredDocumentKinds(draft.idType) : requiredDocumentKinds('nationalId');
    for (const kind of needed) if (!documents.has(kind)) issues.push(fieldIssue(kind, 'validation.documentRequired'));
    if (issues.length > 0 || !parsed.success) throw new RequestValidationError(issues);

    const submitted = {
      ...parsed.data,
      documents: Object.fromEntries(needed.map((kind) => [kind, documents.get(kind)!.id])),
    };
    const expectedDecisionAt = this.deps.calendar.addWorkingDays(now, KYC_REVIEW_WORKING_DAYS);
    const values = {
      status: KYC_STATUS.UNDER_REVIEW,
      message: '',
      submitted,
      submittedAt: now,
      expectedDecisionAt,
      decidedAt: null,
      updatedAt: now,
    };
    // Only from an editable state: a concurrent second commit finds the row Under Review and changes nothing.
    const updated = await this.db
      .insert(kycBasic)
      .values({ userId, draft, ...values })
      .onConflictDoUpdate({
        target: kycBasic.userId,
        set: values,
        setWhere: inArray(kycBasic.status, [KYC_STATUS.NONE, KYC_STATUS.FAILED]),
      })
      .returning({ userId: kycBasic.userId });
    if (updated.length === 0) throw new DomainError('KYC_LOCKED');
    return this.state(userId);
  }

  // ------------------------------------------------------------------ reviewers

  /**
   * The review queue (`GET ops/kyc`): every submission of `status` (default 2, awaiting a decision)
   * across the steps — or only `step` — oldest submission first, one page. A step's entry carries
   * that step's status, submission and expected decision time (`OpsKycQueueItem`); AML answers are
   * counted by their mapped status (`AML_STATUS_AS_KYC_STATUS`), the current version only.
   */
  async listForReview(query: {
    pageID: number;
    pageSize: number;
    status: number;
    step?: KycReviewStep | undefined;
  }): Promise<Page<OpsKycQueueItem>> {
    const parts = (query.step ? [query.step] : KYC_REVIEW_STEPS)
      .map((step) => queueSelect(step, query.status))
      .filter((part): part is SQL => part !== null);
    const empty = { list: [], pageID: query.pageID, pageSize: query.pageSize, totalCount: 0, totalPage: 0 };
    if (parts.length === 0) return empty;
    const queue = sql.join(parts, sql` UNION ALL `);
    const [total] = rowsOf<{ value: string | number }>(
      await this.db.execute(sql`SELECT count(*) AS value FROM (${queue}) AS queue`),
    );
    const rows = rowsOf<QueueRow>(
      await this.db.execute(sql`
        SELECT user_id, step, ref FROM (${queue}) AS queue
        ORDER BY submitted_at ASC NULLS LAST, user_id ASC, step ASC, ref ASC
        LIMIT ${query.pageSize} OFFSET ${(query.pageID - 1) * query.pageSize}`),
    );
    const list: OpsKycQueueItem[] = [];
    for (const row of rows) list.push(await this.queueItem(row));
    const totalCount = Number(total?.value ?? 0);
    return { ...empty, list, totalCount, totalPage: totalPages(totalCount, query.pageSize) };
  }

  /** One queue entry: the user's review view with the queued step's own state laid over it. */
  private async queueItem(row: QueueRow): Promise<OpsKycQueueItem> {
    const view = await this.showForReview(row.user_id);
    const own = await this.stepState(row.step, row.user_id, row.ref === null ? null : Number(row.ref));
    return { ...view, ...own, step: row.step };
  }

  /** The state of one step's submission, as the queue shows it (`basic`: nothing to add). */
  private async stepState(
    step: KycReviewStep,
    userId: string,
    ref: number | null,
  ): Promise<
    Partial<Pick<OpsKycSubmission, 'status' | 'message' | 'submitted' | 'submittedAt' | 'expectedDecisionAt'>>
  > {
    const iso = (value: Date | null | undefined) => value?.toISOString() ?? null;
    if (step === 'investor' || step === 'qualified') {
      const table = step === 'investor' ? kycInvestor : kycQualified;
      const [row] = await this.db.select().from(table).where(eq(table.userId, userId)).limit(1);
      if (!row) return {};
      const { status, message, submitted, submittedAt, expectedDecisionAt } = row;
      return { status, message, submitted, submittedAt: iso(submittedAt), expectedDecisionAt: iso(expectedDecisionAt) };
    }
    if (step === 'aml' && ref !== null) {
      const [row] = await this.db.select().from(kycAmlAnswers).where(eq(kycAmlAnswers.id, ref)).limit(1);
      if (!row) return {};
      const isOpen = row.status === 'enhancedReview';
      return {
        status: AML_STATUS_AS_KYC_STATUS[row.status as AmlStatus],
        message: '',
        submitted: { ...row.answers, points: row.points, level: row.level, matchedRules: row.matchedRules },
        submittedAt: row.createdAt.toISOString(),
        expectedDecisionAt: isOpen
          ? this.deps.calendar.addWorkingDays(row.createdAt, KYC_REVIEW_WORKING_DAYS).toISOString()
          : null,
      };
    }
    if (step === 'residence' && ref !== null) {
      const [row] = await this.db.select().from(kycResidenceChanges).where(eq(kycResidenceChanges.id, ref)).limit(1);
      if (!row) return {};
      return {
        status: row.status,
        message: row.message,
        submitted: { ...row.submitted, previousResidence: row.previousResidence },
        submittedAt: row.submittedAt.toISOString(),
        expectedDecisionAt: iso(row.expectedDecisionAt),
      };
    }
    return {};
  }

  /** One submission with its documents and every decision. @throws DomainError NOT_FOUND. */
  async showForReview(userId: string): Promise<OpsKycSubmission> {
    const row = await this.row(userId);
    if (row) return this.opsView(row);
    // No basic KYC row (a level given otherwise): shown when another step has something.
    const [investor, qualified, aml] = await Promise.all([
      this.investorRow(userId),
      this.db
        .select({ userId: kycQualified.userId })
        .from(kycQualified)
        .where(eq(kycQualified.userId, userId))
        .limit(1),
      this.db.select({ id: kycAmlAnswers.id }).from(kycAmlAnswers).where(eq(kycAmlAnswers.userId, userId)).limit(1),
    ]);
    if (!investor && qualified.length === 0 && aml.length === 0) throw new DomainError('NOT_FOUND');
    const now = this.now();
    return this.opsView({
      userId,
      status: KYC_STATUS.NONE,
      message: '',
      draft: {},
      submitted: null,
      submittedAt: null,
      expectedDecisionAt: null,
      decidedAt: null,
      updatedAt: now,
    });
  }

  /** Approve basic KYC Under Review (`decideStep` of step `basic`): Verified, level 1. */
  async approve(operatorEmail: string, userId: string): Promise<OpsKycSubmission> {
    return this.decideStep(operatorEmail, userId, 'basic', 'approve', null);
  }

  /** Reject basic KYC Under Review with a reason the user sees (`decideStep` of step `basic`): Failed. */
  async reject(operatorEmail: string, userId: string, reason: string): Promise<OpsKycSubmission> {
    return this.decideStep(operatorEmail, userId, 'basic', 'reject', reason);
  }

  /**
   * A reviewer's decision on any step awaiting one — the one routine of every step:
   * - `basic`, `investor`, `qualified`: Under Review → Verified / Failed (the reason kept as the
   *   message; the user fixes the draft and submits again); `qualified` approved holds 12 months;
   * - `aml`: the current answers in enhanced review → accepted / rejected;
   * - `residence`: a change Under Review → Verified (applied to the verified identity; a new
   *   country supersedes the tax form and asks for a new one within 30 days) / Failed.
   * In one transaction the row is changed, the decision audited in `kyc_decisions` with the
   * submission as it was, and the user messaged (also by email) in their language. Then the level:
   * basic approved raises it to 1, qualified approved sets 3, investor and AML recompute level 2.
   * @throws DomainError NOT_FOUND when the user has nothing of that step; KYC_STATE_CHANGED when
   *   nothing of that step awaits a decision.
   */
  async decideStep(
    operatorEmail: string,
    userId: string,
    step: KycReviewStep,
    decision: 'approve' | 'reject',
    reason: string | null,
  ): Promise<OpsKycSubmission> {
    const now = this.now();
    const isApproved = decision === 'approve';
    await this.db.transaction(async (tx) => {
      const submission = await this.closeReview(tx, step, userId, isApproved, reason ?? '', now);
      await tx
        .insert(kycDecisions)
        .values({ userId, subject: step, decision, operatorEmail, reason, submission, createdAt: now });
      await this.deps.notify(decisionNotice(step, userId, isApproved, reason ?? ''), tx);
    });
    if (isApproved && step === 'basic') {
      if ((await this.deps.identity.kycLevelOf(userId)) < 1) await this.deps.identity.setKycLevel(userId, 1);
    } else if (isApproved && step === 'qualified') await this.deps.identity.setKycLevel(userId, 3);
    else if (step !== 'basic' && step !== 'residence') await this.refreshLevel(userId);
    return this.showForReview(userId);
  }

  /**
   * Close the review of `step` for `userId` in `tx` (the row locked by its conditional update):
   * the new state, the reason as the message. @returns the submission as it was.
   * @throws DomainError NOT_FOUND; KYC_STATE_CHANGED.
   */
  private async closeReview(
    tx: Tx,
    step: KycReviewStep,
    userId: string,
    isApproved: boolean,
    message: string,
    now: Date,
  ): Promise<Record<string, unknown> | null> {
    const status = isApproved ? KYC_STATUS.VERIFIED : KYC_STATUS.FAILED;
    const closed = { status, message, decidedAt: now, expectedDecisionAt: null, updatedAt: now };
    let changed: { submitted: Record<string, unknown> | null }[];
    if (step === 'basic') {
      changed = await tx
        .update(kycBasic)
        .set(closed)
        .where(and(eq(kycBasic.userId, userId), eq(kycBasic.status, KYC_STATUS.UNDER_REVIEW)))
        .returning({ submitted: kycBasic.submitted });
    } else if (step === 'investor') {
      changed = await tx
        .update(kycInvestor)
        .set(closed)
        .where(and(eq(kycInvestor.userId, userId), eq(kycInvestor.status, KYC_STATUS.UNDER_REVIEW)))
        .returning({ submitted: kycInvestor.submitted });
    } else if (step === 'qualified') {
      const validUntil = isApproved ? dayjs(now).add(QUALIFIED_VALIDITY_MONTHS, 'month').toDate() : null;
      changed = await tx
        .update(kycQualified)
        .set({ ...closed, validUntil, reminderSentAt: null })
        .where(and(eq(kycQualified.userId, userId), eq(kycQualified.status, KYC_STATUS.UNDER_REVIEW)))
        .returning({ submitted: kycQualified.submitted });
    } else if (step === 'aml') {
      // Only the current (newest) answers can be decided.
      const [current] = await tx
        .select()
        .from(kycAmlAnswers)
        .where(eq(kycAmlAnswers.userId, userId))
        .orderBy(desc(kycAmlAnswers.id))
        .limit(1)
        .for('update');
      changed =
        current?.status === 'enhancedReview'
          ? await tx
              .update(kycAmlAnswers)
              .set({ status: isApproved ? 'accepted' : 'rejected' })
              .where(eq(kycAmlAnswers.id, current.id))
              .returning({ submitted: kycAmlAnswers.answers })
          : [];
    } else {
      const rows = await tx
        .update(kycResidenceChanges)
        .set({ status, message, decidedAt: now, expectedDecisionAt: null })
        .where(and(eq(kycResidenceChanges.userId, userId), eq(kycResidenceChanges.status, KYC_STATUS.UNDER_REVIEW)))
        .returning();
      if (rows[0] && isApproved) await this.applyResidenceChange(tx, rows[0], now);
      changed = rows.map((row) => ({ submitted: row.submitted }));
    }
    if (changed[0]) return changed[0].submitted;
    const hasAny = await this.hasStepRow(tx, step, userId);
    throw new DomainError(hasAny ? 'KYC_STATE_CHANGED' : 'NOT_FOUND');
  }

  /** Whether `userId` has any row of `step` (a refused decision's NOT_FOUND or KYC_STATE_CHANGED). */
  private async hasStepRow(db: DbOrTx, step: KycReviewStep, userId: string): Promise<boolean> {
    const table = {
      basic: kycBasic,
      investor: kycInvestor,
      qualified: kycQualified,
      aml: kycAmlAnswers,
      residence: kycResidenceChanges,
    }[step];
    const rows = await db.select({ userId: table.userId }).from(table).where(eq(table.userId, userId)).limit(1);
    return rows.length > 0;
  }

  // ------------------------------------------------------------------ investor profile, AML, tax (level 2)

  /** `GET user/identity/investor`. */
  async investorState(userId: string): Promise<InvestorState> {
    const row = await this.investorRow(userId);
    return {
      status: row?.status ?? KYC_STATUS.NONE,
      message: row?.message ?? '',
      draft: row?.draft ?? {},
      submitted: row?.submitted ?? null,
      submittedAt: row?.submittedAt?.toISOString() ?? null,
      expectedDecisionAt: row?.expectedDecisionAt?.toISOString() ?? null,
    };
  }

  /** `POST user/identity/investor`: replace the saved draft. @throws DomainError KYC_LOCKED while Under Review or once Verified. */
  async saveInvestorDraft(userId: string, draft: InvestorDraft): Promise<InvestorState> {
    this.assertEditable(await this.investorRow(userId));
    await this.db
      .insert(kycInvestor)
      .values({ userId, draft, updatedAt: this.now() })
      .onConflictDoUpdate({ target: kycInvestor.userId, set: { draft, updatedAt: this.now() } });
    return this.investorState(userId);
  }

  /**
   * `POST user/identity/commit`: check the investor draft (`investorSubmissionSchema`; a company's
   * country of incorporation in the list, beneficial owners' shares at most 100 % in total, its
   * certificate of incorporation and register of directors uploaded), then Under Review with a
   * decision due in 1 Hong Kong working day.
   * @throws RequestValidationError naming every failing field; DomainError KYC_LOCKED.
   */
  async commitInvestor(userId: string): Promise<InvestorState> {
    const now = this.now();
    const row = await this.investorRow(userId);
    this.assertEditable(row);
    const draft = row?.draft ?? {};
    const parsed = investorSubmissionSchema.safeParse(draft);
    const issues: z.core.$ZodIssue[] = parsed.success ? [] : [...parsed.error.issues];
    let documentIds: Record<string, string> = {};
    if (parsed.success && parsed.data.type === 'company') {
      const { company } = parsed.data;
      if (!this.deps.isKnownCountry(company.countryOfIncorporation))
        issues.push({
          ...fieldIssue('countryOfIncorporation', 'validation.country'),
          path: ['company', 'countryOfIncorporation'],
        });
      const totalHundredths = company.beneficialOwners.reduce(
        (sum, owner) => sum + percentHundredths(owner.sharePercent),
        0,
      );
      if (totalHundredths > 100 * 100)
        issues.push({
          ...fieldIssue('beneficialOwners', 'validation.sharesTotal'),
          path: ['company', 'beneficialOwners'],
        });
      const documents = await this.currentDocuments(userId);
      for (const kind of COMPANY_DOCUMENT_KINDS)
        if (!documents.has(kind)) issues.push(fieldIssue(kind, 'validation.documentRequired'));
      documentIds = Object.fromEntries(
        COMPANY_DOCUMENT_KINDS.filter((kind) => documents.has(kind)).map((kind) => [kind, documents.get(kind)!.id]),
      );
    }
    if (issues.length > 0 || !parsed.success) throw new RequestValidationError(issues);
    const submitted = { ...parsed.data, ...(parsed.data.type === 'company' && { documents: documentIds }) };
    const values = {
      status: KYC_STATUS.UNDER_REVIEW,
      message: '',
      submitted,
      submittedAt: now,
      expectedDecisionAt: this.deps.calendar.addWorkingDays(now, KYC_REVIEW_WORKING_DAYS),
      decidedAt: null,
      updatedAt: now,
    };
    const updated = await this.db
      .insert(kycInvestor)
      .values({ userId, draft, ...values })
      .onConflictDoUpdate({
        target: kycInvestor.userId,
        set: values,
        setWhere: inArray(kycInvestor.status, [KYC_STATUS.NONE, KYC_STATUS.FAILED]),
      })
      .returning({ userId: kycInvestor.userId });
    if (updated.length === 0) throw new DomainError('KYC_LOCKED');
    return this.investorState(userId);
  }

  /** `GET investor/aml`: the current answers with their score, and how many versions are kept. */
  async amlState(userId: string): Promise<AmlState> {
    const rows = await this.db
      .select()
      .from(kycAmlAnswers)
      .where(eq(kycAmlAnswers.userId, userId))
      .orderBy(desc(kycAmlAnswers.id));
    const current = rows[0];
    return {
      current: current
        ? {
            version: rows.length,
            answers: current.answers,
            points: current.points,
            level: current.level as AmlRiskLevel,
            status: current.status as AmlStatus,
            createdAt: current.createdAt.toISOString(),
          }
        : null,
      versionCount: rows.length,
    };
  }

  /**
   * `POST investor/aml`: score the answers by the rule table (`scoreAmlAnswers`) and keep them as a
   * new version: low and medium risk are accepted, high goes to enhanced review (a reviewer accepts
   * or rejects it). Accepting may complete level 2.
   */
  async answerAml(userId: string, answers: AmlAnswersInput): Promise<AmlState> {
    const score = scoreAmlAnswers(answers);
    await this.db.insert(kycAmlAnswers).values({
      userId,
      // Dated by the app's clock: the review queue orders these with the other steps' submittedAt.
      createdAt: this.now(),
      answers: answers as unknown as Record<string, unknown>,
      points: score.points,
      level: score.level,
      matchedRules: score.matchedRules,
      status: score.needsEnhancedReview ? 'enhancedReview' : 'accepted',
    });
    await this.refreshLevel(userId);
    return this.amlState(userId);
  }

  /**
   * `GET investor/tax`: the form on file (the TIN masked but for its last 4 characters), and whether a
   * new form is asked for after a change of country, due by when.
   */
  async taxState(userId: string): Promise<TaxState> {
    const rows = await this.db
      .select()
      .from(kycTaxForms)
      .where(eq(kycTaxForms.userId, userId))
      .orderBy(desc(kycTaxForms.id));
    const current = rows.find((row) => row.supersededAt === null);
    const request = await this.taxFormRequest(userId);
    return {
      current: current
        ? {
            id: current.id,
            form: current.form as 'W9' | 'W8BEN',
            summary: maskTaxData(current.data),
            createdAt: current.createdAt.toISOString(),
          }
        : null,
      supersededCount: rows.filter((row) => row.supersededAt !== null).length,
      changeReportDays: TAX_CHANGE_REPORT_DAYS,
      isNewFormRequired: request !== null,
      newFormDueAt: request?.dueAt.toISOString() ?? null,
    };
  }

  /**
   * `POST investor/tax`: file a form; the one on file is marked superseded in the same transaction.
   * A US person (nationality or residence US in the verified identity, or born in the US) must file
   * a W-9. Each W-8BEN residence must be a country of the list.
   * @throws FieldError `form` (validation.usPersonW9), `residences.N.country` (validation.country).
   */
  async fileTax(userId: string, input: TaxFormInput): Promise<TaxState> {
    if (input.form === 'W8BEN') {
      const basic = (await this.row(userId))?.submitted ?? {};
      const isUsPerson =
        input.isUsBorn ||
        basic.nationality === 'US' ||
        basic.residence === 'US' ||
        input.residences.some((item) => item.country === 'US');
      if (isUsPerson) throw new FieldError('form', 'validation.usPersonW9');
      const unknown = input.residences.findIndex((item) => !this.deps.isKnownCountry(item.country));
      if (unknown >= 0) throw new FieldError(`residences.${unknown}.country`, 'validation.country');
    }
    const now = this.now();
    await this.db.transaction(async (tx) => {
      await supersedeTaxForm(tx, userId, now);
      await tx.insert(kycTaxForms).values({
        userId,
        form: input.form,
        data: input as unknown as Record<string, unknown>,
        // From the app's clock: a form counts only when filed after a change of country (decidedAt).
        createdAt: this.now(),
      });
    });
    await this.refreshLevel(userId);
    return this.taxState(userId);
  }

  /** `GET investor/qualify`. */
  async qualifyState(userId: string): Promise<QualifyState> {
    const [row] = await this.db.select().from(kycQualified).where(eq(kycQualified.userId, userId)).limit(1);
    return {
      status: row?.status ?? KYC_STATUS.NONE,
      message: row?.message ?? '',
      submitted: row?.submitted ?? null,
      submittedAt: row?.submittedAt?.toISOString() ?? null,
      expectedDecisionAt: row?.expectedDecisionAt?.toISOString() ?? null,
      validUntil: row?.validUntil?.toISOString() ?? null,
    };
  }

  /**
   * `POST investor/qualify`: the declaration (thresholds checked by `qualifySubmissionSchema`) with
   * the evidence files uploaded as `qualifiedEvidence`; Under Review, decided in 1 working day.
   * Allowed when none, Failed or Expired.
   * @throws FieldError `qualifiedEvidence` when no evidence is uploaded; DomainError KYC_LOCKED.
   */
  async applyQualified(userId: string, input: QualifySubmission): Promise<QualifyState> {
    const evidence = await this.db
      .select({ id: kycDocuments.id })
      .from(kycDocuments)
      .where(and(eq(kycDocuments.userId, userId), eq(kycDocuments.kind, 'qualifiedEvidence')));
    if (evidence.length === 0) throw new FieldError('qualifiedEvidence', 'validation.documentRequired');
    const now = this.now();
    const values = {
      status: KYC_STATUS.UNDER_REVIEW,
      message: '',
      submitted: { ...input, documents: evidence.map((item) => item.id) },
      submittedAt: now,
      expectedDecisionAt: this.deps.calendar.addWorkingDays(now, KYC_REVIEW_WORKING_DAYS),
      decidedAt: null,
      validUntil: null,
      reminderSentAt: null,
      updatedAt: now,
    };
    const updated = await this.db
      .insert(kycQualified)
      .values({ userId, ...values })
      .onConflictDoUpdate({
        target: kycQualified.userId,
        set: values,
        setWhere: inArray(kycQualified.status, [KYC_STATUS.NONE, KYC_STATUS.FAILED, KYC_STATUS.EXPIRED]),
      })
      .returning({ userId: kycQualified.userId });
    if (updated.length === 0) throw new DomainError('KYC_LOCKED');
    return this.qualifyState(userId);
  }

  /**
   * The daily qualified-investor check (job `kyc.qualified-expiry`): 30 days before an approval
   * ends the user is told once; at its end the status becomes Expired, the level drops back to 2
   * and the user is told.
   * Runs on `db`: the job passes its transaction, which on the embedded database holds the only
   * connection (a statement on another handle would wait for it forever).
   * @returns how many reminders and expiries were made.
   */
  async runQualifiedExpiry(
    now: Date = this.now(),
    db: DbOrTx = this.db,
  ): Promise<{ reminded: number; expired: number }> {
    const reminderFrom = dayjs(now).add(QUALIFIED_REMINDER_DAYS, 'day').toDate();
    const due = await db
      .select()
      .from(kycQualified)
      .where(and(eq(kycQualified.status, KYC_STATUS.VERIFIED), lte(kycQualified.validUntil, reminderFrom)));
    let reminded = 0;
    let expired = 0;
    for (const row of due) {
      const validUntil = row.validUntil!;
      if (validUntil.getTime() <= now.getTime()) {
        await db.transaction(async (tx) => {
          await tx
            .update(kycQualified)
            .set({ status: KYC_STATUS.EXPIRED, updatedAt: now })
            .where(and(eq(kycQualified.userId, row.userId), eq(kycQualified.status, KYC_STATUS.VERIFIED)));
          await this.deps.notify(
            {
              userId: row.userId,
              category: 'KYC',
              title: { 'en-US': 'Qualified investor status expired', 'zh-HK': '合格投資者資格已到期' },
              body: {
                'en-US':
                  'Your qualified investor status has expired. Apply again to keep professional-only products open.',
                'zh-HK': '你的合格投資者資格已到期，請重新申請以繼續使用專業投資者產品。',
              },
              link: '/identity/qualify',
            },
            tx,
          );
        });
        if ((await this.deps.identity.kycLevelOf(row.userId, db)) >= 2)
          await this.deps.identity.setKycLevel(row.userId, 2, db);
        expired += 1;
      } else if (row.reminderSentAt === null) {
        await db.transaction(async (tx) => {
          await tx.update(kycQualified).set({ reminderSentAt: now }).where(eq(kycQualified.userId, row.userId));
          await this.deps.notify(
            {
              userId: row.userId,
              category: 'KYC',
              title: { 'en-US': 'Qualified investor status ends soon', 'zh-HK': '合格投資者資格即將到期' },
              body: {
                'en-US': 'Your qualified investor status ends on {date}. Apply again before then to keep it.',
                'zh-HK': '你的合格投資者資格將於 {date} 到期，請於到期前重新申請。',
              },
              params: { date: validUntil.toISOString().slice(0, 10) },
              link: '/identity/qualify',
            },
            tx,
          );
        });
        reminded += 1;
      }
    }
    return { reminded, expired };
  }

  // ------------------------------------------------------------------ change of residence, tax form deadline

  /** `GET user/identity/residence`: the newest reported change of residence, if any. */
  async residenceState(userId: string): Promise<ResidenceChangeState> {
    const [row] = await this.db
      .select()
      .from(kycResidenceChanges)
      .where(eq(kycResidenceChanges.userId, userId))
      .orderBy(desc(kycResidenceChanges.id))
      .limit(1);
    return {
      current: row
        ? {
            status: row.status,
            message: row.message,
            previousResidence: row.previousResidence,
            submitted: row.submitted,
            submittedAt: row.submittedAt.toISOString(),
            expectedDecisionAt: row.expectedDecisionAt?.toISOString() ?? null,
            taxFormDueAt: row.taxFormDueAt?.toISOString() ?? null,
          }
        : null,
    };
  }

  /**
   * `POST user/identity/residence`: a verified user reports a new residence (country and address)
   * with a new proof of address, uploaded as `proofOfAddress` after the identity was verified and
   * dated within 90 days. The change goes Under Review (decided in 1 Hong Kong working day, step
   * `residence`); the verified identity and level 1 stay as they are meanwhile.
   * @throws RequestValidationError naming each failing field (`residence` unknown country, `address`
   *   unchanged, `proofOfAddressDate` too old, `proofOfAddress` not uploaded); DomainError
   *   KYC_NOT_VERIFIED without a verified identity, KYC_LOCKED while a change is Under Review.
   */
  async reportResidence(userId: string, input: ResidenceChangeInput): Promise<ResidenceChangeState> {
    const now = this.now();
    const basic = await this.row(userId);
    if (basic?.status !== KYC_STATUS.VERIFIED || !basic.submitted || !basic.decidedAt)
      throw new DomainError('KYC_NOT_VERIFIED');
    if (await this.openResidenceChange(userId)) throw new DomainError('KYC_LOCKED');
    const issues: z.core.$ZodIssue[] = [];
    if (!this.deps.isKnownCountry(input.residence)) issues.push(fieldIssue('residence', 'validation.country'));
    if (input.residence === basic.submitted.residence && input.address === basic.submitted.address)
      issues.push(fieldIssue('address', 'validation.residenceUnchanged'));
    const issue = this.proofOfAddressDateIssue(input.proofOfAddressDate, now);
    if (issue) issues.push(issue);
    const proof = (await this.currentDocuments(userId)).get('proofOfAddress');
    if (!proof || proof.createdAt.getTime() <= basic.decidedAt.getTime())
      issues.push(fieldIssue('proofOfAddress', 'validation.documentRequired'));
    if (issues.length > 0 || !proof) throw new RequestValidationError(issues);
    const inserted = await this.db
      .insert(kycResidenceChanges)
      .values({
        userId,
        status: KYC_STATUS.UNDER_REVIEW,
        previousResidence: String(basic.submitted.residence ?? ''),
        submitted: { ...input, documents: { proofOfAddress: proof.id } },
        submittedAt: now,
        expectedDecisionAt: this.deps.calendar.addWorkingDays(now, KYC_REVIEW_WORKING_DAYS),
      })
      // The partial unique index allows one change Under Review per user: a concurrent second report adds nothing.
      .onConflictDoNothing()
      .returning({ id: kycResidenceChanges.id });
    if (inserted.length === 0) throw new DomainError('KYC_LOCKED');
    return this.residenceState(userId);
  }

  private async openResidenceChange(userId: string): Promise<boolean> {
    const rows = await this.db
      .select({ id: kycResidenceChanges.id })
      .from(kycResidenceChanges)
      .where(and(eq(kycResidenceChanges.userId, userId), eq(kycResidenceChanges.status, KYC_STATUS.UNDER_REVIEW)))
      .limit(1);
    return rows.length > 0;
  }

  /**
   * An approved change of residence, in the decision's transaction: the verified identity takes
   * the new residence, address and proof of address. When the country changed and a tax form is
   * on file, that form is superseded, a new one is due in 30 days (`taxFormDueAt`) and the user is
   * asked for it (message and email, in their language).
   */
  private async applyResidenceChange(
    tx: Tx,
    change: typeof kycResidenceChanges.$inferSelect,
    now: Date,
  ): Promise<void> {
    const { residence, address, proofOfAddressDate, documents } = change.submitted as ResidenceChangeInput & {
      documents: { proofOfAddress: string };
    };
    const [basic] = await tx.select().from(kycBasic).where(eq(kycBasic.userId, change.userId)).for('update');
    if (basic?.submitted) {
      const submittedDocuments = (basic.submitted.documents as Record<string, string> | undefined) ?? {};
      await tx
        .update(kycBasic)
        .set({
          submitted: {
            ...basic.submitted,
            residence,
            address,
            proofOfAddressDate,
            documents: { ...submittedDocuments, proofOfAddress: documents.proofOfAddress },
          },
          draft: { ...basic.draft, residence, address, proofOfAddressDate },
          updatedAt: now,
        })
        .where(eq(kycBasic.userId, change.userId));
    }
    if (residence === change.previousResidence) return;
    if (!(await supersedeTaxForm(tx, change.userId, now))) return;
    const taxFormDueAt = dayjs(now).add(TAX_CHANGE_REPORT_DAYS, 'day').toDate();
    await tx.update(kycResidenceChanges).set({ taxFormDueAt }).where(eq(kycResidenceChanges.id, change.id));
    await this.deps.notify(
      {
        userId: change.userId,
        category: 'KYC',
        title: { 'en-US': 'A new tax form is needed', 'zh-HK': '請提交新的稅務表格' },
        body: {
          'en-US':
            'Your country of residence is now {country}, so the tax form on file no longer applies. Please file a new one by {date}; until then investor services stay open, after that they are suspended until you file it.',
          'zh-HK':
            '你的居住地已變更為 {country}，原有的稅務表格已不再適用。請於 {date} 前提交新的稅務表格；逾期未交，投資者服務將暫停，直至你提交為止。',
        },
        params: { country: residence, date: hongKongDay(taxFormDueAt) },
        link: '/identity/tax',
      },
      tx,
    );
  }

  /**
   * The new tax form asked for after a change of country (the newest approved change with a due
   * time), unless a form was filed after that change was approved.
   */
  private async taxFormRequest(userId: string): Promise<{ dueAt: Date } | null> {
    const [change] = await this.db
      .select()
      .from(kycResidenceChanges)
      .where(and(eq(kycResidenceChanges.userId, userId), isNotNull(kycResidenceChanges.taxFormDueAt)))
      .orderBy(desc(kycResidenceChanges.id))
      .limit(1);
    if (!change?.taxFormDueAt || !change.decidedAt) return null;
    const filed = await this.db
      .select({ id: kycTaxForms.id })
      .from(kycTaxForms)
      .where(and(eq(kycTaxForms.userId, userId), gt(kycTaxForms.createdAt, change.decidedAt)))
      .limit(1);
    return filed.length > 0 ? null : { dueAt: change.taxFormDueAt };
  }

  /**
   * The daily tax-form deadline (job `kyc.tax-form-deadline`): a user asked for a new tax form after
   * a change of country who filed none within 30 days drops from level 2 (or 3) to level 1 and is
   * told; each request lapses once (`taxFormLapsedAt`). Filing a form later restores level 2 when
   * the other conditions hold (`refreshLevel`). Runs on `db` (the job's transaction).
   * @returns how many users were dropped to level 1.
   */
  async runTaxFormDeadlines(now: Date = this.now(), db: DbOrTx = this.db): Promise<{ lapsed: number }> {
    const due = await db
      .select()
      .from(kycResidenceChanges)
      .where(
        and(
          lte(kycResidenceChanges.taxFormDueAt, now),
          isNull(kycResidenceChanges.taxFormLapsedAt),
          notExists(
            db
              .select({ id: kycTaxForms.id })
              .from(kycTaxForms)
              .where(
                and(
                  eq(kycTaxForms.userId, kycResidenceChanges.userId),
                  gt(kycTaxForms.createdAt, kycResidenceChanges.decidedAt),
                ),
              ),
          ),
        ),
      )
      .orderBy(asc(kycResidenceChanges.id))
      .limit(TAX_DEADLINE_BATCH_MAX);
    let lapsed = 0;
    for (const change of due) {
      await db.transaction(async (tx) => {
        await tx.update(kycResidenceChanges).set({ taxFormLapsedAt: now }).where(eq(kycResidenceChanges.id, change.id));
        if ((await this.deps.identity.kycLevelOf(change.userId, tx)) < 2) return;
        await this.deps.identity.setKycLevel(change.userId, 1, tx);
        await this.deps.notify(
          {
            userId: change.userId,
            category: 'KYC',
            title: { 'en-US': 'Investor services suspended', 'zh-HK': '投資者服務已暫停' },
            body: {
              'en-US':
                'No new tax form was filed by {date} after your change of residence, so investor services are suspended. File a new tax form to open them again.',
              'zh-HK': '你變更居住地後未於 {date} 前提交新的稅務表格，投資者服務已暫停。提交新的稅務表格後即可恢復。',
            },
            params: { date: hongKongDay(change.taxFormDueAt!) },
            link: '/identity/tax',
          },
          tx,
        );
        lapsed += 1;
      });
    }
    return { lapsed };
  }

  // ------------------------------------------------------------------ user/self

  /**
   * The review states `user/self` shows (`status`): `user` and `investor` from the basic
   * KYC and investor profile rows (`KYC_STATUS`: 0 none, 1 Verified, 2 Under Review, 3 Failed, with
   * the reviewer's reason as `message`), `aml` the current answers' status mapped the same way
   * (`AML_STATUS_AS_KYC_STATUS`), `qualify` the qualified-investor application's (4 Expired), and
   * the verified name and residence. A user with no row of a step but a level that includes it (a
   * level given directly, as only test fixtures do; the product and the demo seed reach a level
   * through the steps, docs/decisions/0011-verification-level.md) shows that step as Verified.
   */
  async selfStatus(userId: string, level: number): Promise<KycSelfStatus> {
    const [{ basic, investor, amlStatus }, qualified] = await Promise.all([
      this.levelTwoRows(userId),
      this.db.select({ status: kycQualified.status }).from(kycQualified).where(eq(kycQualified.userId, userId)),
    ]);
    const stepStatus = (row: { status: number; message: string } | undefined, levelOfStep: number) =>
      row && row.status !== KYC_STATUS.NONE
        ? { status: row.status, message: row.message }
        : { status: level >= levelOfStep ? KYC_STATUS.VERIFIED : KYC_STATUS.NONE, message: '' };
    const verified = basic?.status === KYC_STATUS.VERIFIED ? basic.submitted : null;
    return {
      user: stepStatus(basic, 1),
      investor: stepStatus(investor, 2),
      aml: amlStatus ? AML_STATUS_AS_KYC_STATUS[amlStatus] : level >= 2 ? KYC_STATUS.VERIFIED : KYC_STATUS.NONE,
      qualify: qualified[0]?.status ?? (level >= 3 ? KYC_STATUS.VERIFIED : KYC_STATUS.NONE),
      basic: verified
        ? {
            firstName: String(verified.firstName ?? ''),
            lastName: String(verified.lastName ?? ''),
            country: String(verified.residence ?? ''),
          }
        : null,
    };
  }

  /**
   * Level 2 once basic KYC is Verified, the investor profile Verified, the
   * current AML answers accepted and a tax form on file; the level is raised, never lowered here.
   */
  async refreshLevel(userId: string): Promise<void> {
    const [{ basic, investor, amlStatus }, tax] = await Promise.all([
      this.levelTwoRows(userId),
      this.db
        .select({ id: kycTaxForms.id })
        .from(kycTaxForms)
        .where(and(eq(kycTaxForms.userId, userId), isNull(kycTaxForms.supersededAt)))
        .limit(1),
    ]);
    const isComplete =
      basic?.status === KYC_STATUS.VERIFIED &&
      investor?.status === KYC_STATUS.VERIFIED &&
      amlStatus === 'accepted' &&
      tax.length > 0;
    if (isComplete && (await this.deps.identity.kycLevelOf(userId)) < 2)
      await this.deps.identity.setKycLevel(userId, 2);
  }

  /** The basic KYC and investor profile rows of `userId`, and the status of the current AML answers. */
  private async levelTwoRows(userId: string): Promise<{
    basic: BasicRow | undefined;
    investor: typeof kycInvestor.$inferSelect | undefined;
    amlStatus: AmlStatus | undefined;
  }> {
    const [basic, investor, aml] = await Promise.all([
      this.row(userId),
      this.investorRow(userId),
      this.db
        .select({ status: kycAmlAnswers.status })
        .from(kycAmlAnswers)
        .where(eq(kycAmlAnswers.userId, userId))
        .orderBy(desc(kycAmlAnswers.id))
        .limit(1),
    ]);
    return { basic, investor, amlStatus: aml[0]?.status as AmlStatus | undefined };
  }

  private async investorRow(userId: string): Promise<typeof kycInvestor.$inferSelect | undefined> {
    const [row] = await this.db.select().from(kycInvestor).where(eq(kycInvestor.userId, userId)).limit(1);
    return row;
  }

  // ------------------------------------------------------------------ helpers

  private async row(userId: string): Promise<BasicRow | undefined> {
    const [row] = await this.db.select().from(kycBasic).where(eq(kycBasic.userId, userId)).limit(1);
    return row;
  }

  /** The issue of a proof-of-address date (`YYYY-MM-DD`) in the future or older than 90 days at `now` (HK date), if any. */
  private proofOfAddressDateIssue(proofDate: string | undefined, now: Date): z.core.$ZodIssue | null {
    if (!proofDate || !dayjs(proofDate, 'YYYY-MM-DD', true).isValid()) return null;
    const today = hongKongDay(now);
    const oldest = dayjs(today).subtract(PROOF_OF_ADDRESS_AGE_DAYS_MAX, 'day').format('YYYY-MM-DD');
    return proofDate > today || proofDate < oldest
      ? fieldIssue('proofOfAddressDate', 'validation.proofOfAddressOld', { days: PROOF_OF_ADDRESS_AGE_DAYS_MAX })
      : null;
  }

  private assertEditable(row: { status: number } | undefined): void {
    if (row && (row.status === KYC_STATUS.UNDER_REVIEW || row.status === KYC_STATUS.VERIFIED))
      throw new DomainError('KYC_LOCKED');
  }

  /** The newest document of each kind. */
  private async currentDocuments(userId: string): Promise<Map<KycDocumentKind, DocumentRow>> {
    const rows = await this.db
      .select()
      .from(kycDocuments)
      .where(eq(kycDocuments.userId, userId))
      .orderBy(desc(kycDocuments.createdAt), desc(kycDocuments.id));
    const byKind = new Map<KycDocumentKind, DocumentRow>();
    for (const row of rows) if (!byKind.has(row.kind as KycDocumentKind)) byKind.set(row.kind as KycDocumentKind, row);
    return byKind;
  }

  private async stateOf(userId: string, row: BasicRow | undefined): Promise<BasicKycState> {
    const documents = await this.currentDocuments(userId);
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

  private async opsView(row: BasicRow): Promise<OpsKycSubmission> {
    const recipients = await this.deps.identity.recipientsOf([row.userId]);
    const decisions = await this.db
      .select()
      .from(kycDecisions)
      .where(eq(kycDecisions.userId, row.userId))
      .orderBy(asc(kycDecisions.createdAt), asc(kycDecisions.id));
    const [investor] = await this.db.select().from(kycInvestor).where(eq(kycInvestor.userId, row.userId)).limit(1);
    const [aml] = await this.db
      .select()
      .from(kycAmlAnswers)
      .where(eq(kycAmlAnswers.userId, row.userId))
      .orderBy(desc(kycAmlAnswers.id))
      .limit(1);
    const [qualified] = await this.db.select().from(kycQualified).where(eq(kycQualified.userId, row.userId)).limit(1);
    const documentIds = Object.values((row.submitted?.documents as Record<string, string> | undefined) ?? {});
    const documents =
      documentIds.length > 0
        ? await this.db.select().from(kycDocuments).where(inArray(kycDocuments.id, documentIds))
        : [];
    return {
      userId: row.userId,
      email: recipients.get(row.userId)?.email ?? null,
      status: row.status,
      message: row.message,
      submitted: row.submitted ?? null,
      submittedAt: row.submittedAt?.toISOString() ?? null,
      expectedDecisionAt: row.expectedDecisionAt?.toISOString() ?? null,
      documents: documents.map(toDocument),
      decisions: decisions.map((item) => ({
        subject: item.subject,
        decision: item.decision as 'approve' | 'reject',
        operatorEmail: item.operatorEmail,
        reason: item.reason,
        createdAt: item.createdAt.toISOString(),
      })),
      investor: investor
        ? { status: investor.status, message: investor.message, submitted: investor.submitted ?? null }
        : null,
      aml: aml ? { status: aml.status, level: aml.level, points: aml.points, matchedRules: aml.matchedRules } : null,
      qualified: qualified
        ? {
            status: qualified.status,
            submitted: qualified.submitted ?? null,
            validUntil: qualified.validUntil?.toISOString() ?? null,
          }
        : null,
    };
  }

  // ------------------------------------------------------------------ back office

  /**
   * The review queue's size (submissions Under Review across every step, as `listForReview` counts
   * them) and its oldest submission, for the back-office dashboard.
   */
  async reviewQueueStats(): Promise<{ size: number; oldestAt: Date | null }> {
    const parts = KYC_REVIEW_STEPS.map((step) => queueSelect(step, KYC_STATUS.UNDER_REVIEW)).filter(
      (part): part is SQL => part !== null,
    );
    const queue = sql.join(parts, sql` UNION ALL `);
    const [row] = rowsOf<{ size: string | number; oldest: Date | string | null }>(
      await this.db.execute(sql`SELECT count(*) AS size, min(submitted_at) AS oldest FROM (${queue}) AS queue`),
    );
    return { size: Number(row?.size ?? 0), oldestAt: row?.oldest ? new Date(row.oldest) : null };
  }

  /**
   * The user's verified name: the first and last name (English) of the approved basic-KYC
   * submission; null while basic KYC is not Verified (a draft or a submission under review is not
   * a verified name). Read on `db` when given.
   */
  async verifiedNameOf(userId: string, db: DbOrTx = this.db): Promise<{ firstName: string; lastName: string } | null> {
    const [row] = await db
      .select({ status: kycBasic.status, submitted: kycBasic.submitted })
      .from(kycBasic)
      .where(eq(kycBasic.userId, userId))
      .limit(1);
    if (row?.status !== KYC_STATUS.VERIFIED || !row.submitted) return null;
    return { firstName: String(row.submitted.firstName ?? ''), lastName: String(row.submitted.lastName ?? '') };
  }

  /**
   * The names users gave in basic KYC (the submitted copy, else the draft), `firstName lastName`;
   * users without one are absent from the map.
   */
  async namesOf(userIds: readonly string[]): Promise<Map<string, string>> {
    if (userIds.length === 0) return new Map();
    const rows = await this.db
      .select({ userId: kycBasic.userId, submitted: kycBasic.submitted, draft: kycBasic.draft })
      .from(kycBasic)
      .where(inArray(kycBasic.userId, [...userIds]));
    const names = new Map<string, string>();
    for (const row of rows) {
      const source = (row.submitted ?? row.draft) as Record<string, unknown>;
      const name = [source.firstName, source.lastName]
        .filter((part) => typeof part === 'string' && part !== '')
        .join(' ');
      if (name !== '') names.set(row.userId, name);
    }
    return names;
  }

  /**
   * Users whose basic-KYC name (English or Chinese, submitted or draft) contains `text`
   * (case-insensitive), at most `limit`: the back office's search by name.
   */
  async userIdsMatchingName(text: string, limit: number): Promise<string[]> {
    const pattern = `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
    const name = (source: SQL) =>
      sql`concat_ws(' ', ${source}->>'firstName', ${source}->>'lastName', ${source}->>'nameChinese')`;
    const rows = await this.db
      .select({ userId: kycBasic.userId })
      .from(kycBasic)
      .where(
        sql`${name(sql`${kycBasic.submitted}`)} ILIKE ${pattern} OR ${name(sql`${kycBasic.draft}`)} ILIKE ${pattern}`,
      )
      .limit(limit);
    return rows.map((row) => row.userId);
  }

  /**
   * The user's verification steps for the back office's user page: basic, investor, AML and
   * qualified investor, each with its status name (`none`, `verified`, `underReview`, `failed`,
   * `expired`, as `selfStatus` derives them from the rows and `level`) and the time of the latest
   * reviewer decision on it (null when none, e.g. AML answers accepted by the rules).
   */
  async verificationStepsOf(
    userId: string,
    level: number,
  ): Promise<{ step: string; status: string; decidedAt: Date | null }[]> {
    const status = await this.selfStatus(userId, level);
    const decisions = await this.db
      .select({ subject: kycDecisions.subject, at: sql<Date | string>`max(${kycDecisions.createdAt})` })
      .from(kycDecisions)
      .where(eq(kycDecisions.userId, userId))
      .groupBy(kycDecisions.subject);
    const decidedAt = (subject: string) => {
      const at = decisions.find((row) => row.subject === subject)?.at;
      return at ? new Date(at) : null;
    };
    const names: Record<number, string> = {
      [KYC_STATUS.NONE]: 'none',
      [KYC_STATUS.VERIFIED]: 'verified',
      [KYC_STATUS.UNDER_REVIEW]: 'underReview',
      [KYC_STATUS.FAILED]: 'failed',
      [KYC_STATUS.EXPIRED]: 'expired',
    };
    const nameOf = (value: number) => names[value] ?? String(value);
    return [
      { step: 'basic', status: nameOf(status.user.status), decidedAt: decidedAt('basic') },
      { step: 'investor', status: nameOf(status.investor.status), decidedAt: decidedAt('investor') },
      { step: 'aml', status: nameOf(status.aml), decidedAt: decidedAt('aml') },
      { step: 'qualified', status: nameOf(status.qualify), decidedAt: decidedAt('qualified') },
    ];
  }
}
