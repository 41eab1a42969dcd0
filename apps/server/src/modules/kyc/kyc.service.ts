import {
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
import { and, asc, count, desc, eq, inArray, isNull, lte } from 'drizzle-orm';
import type { z } from 'zod';
import type { BusinessCalendar } from '../../platform/calendar/business-calendar.ts';
import { BUSINESS_TIME_ZONE } from '../../platform/calendar/business-calendar.ts';
import type { Db, DbOrTx } from '../../platform/db/client.ts';
import { DomainError, FieldError } from '../../platform/http/errors.ts';
import { RequestValidationError } from '../../platform/http/validation.ts';
import { UPLOADS_FIELD } from '../../platform/uploads/multipart-reader.ts';
import type { UploadStore } from '../../platform/uploads/upload-store.ts';
import type { ValidatedUpload } from '../../platform/uploads/upload-rules.ts';
import type { NotifyInput } from '../notices/notices.service.ts';
import { type AmlAnswers, type AmlRiskLevel, scoreAmlAnswers } from './kyc.aml-scoring.ts';
import {
  kycAmlAnswers,
  kycBasic,
  kycDecisions,
  kycDocuments,
  kycInvestor,
  kycQualified,
  kycTaxForms,
} from './kyc.tables.ts';

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
  now?: () => Date;
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

/** The steps' names in messages. */
const STEP_NAMES = {
  investor: { 'en-US': 'Investor profile', 'zh-HK': '投資者資料' },
  aml: { 'en-US': 'AML questionnaire', 'zh-HK': '反洗錢問卷' },
  qualified: { 'en-US': 'Qualified investor application', 'zh-HK': '合格投資者申請' },
} as const;

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

/**
 * Basic identity verification (issue 15; spec §1, §3, §5, §7 `user/info`, `user/commit`, §9): the
 * draft, the documents, the submission and its review. States (`KYC_STATUS`): 0 none → 2 Under
 * Review (commit) → 1 Verified (approve, level 1) or 3 Failed (reject with a reason) → 2 again
 * (the user fixes the draft and commits). Under Review and Verified freeze the fields.
 */
export class KycService {
  private readonly db: Db;
  private readonly now: () => Date;

  constructor(private readonly deps: KycServiceDeps) {
    this.db = deps.db;
    this.now = deps.now ?? (() => new Date());
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
   *   DomainError KYC_LOCKED while Under Review or once Verified.
   */
  async addDocuments(userId: string, files: readonly ValidatedUpload[]): Promise<KycDocument[]> {
    this.assertEditable(await this.row(userId));
    const stranger = files.find((file) => !(KYC_DOCUMENT_KINDS as readonly string[]).includes(file.fieldName));
    if (stranger) throw new FieldError(UPLOADS_FIELD, 'validation.documentKind', { file: stranger.fileName });
    const stored = await this.deps.uploads.saveAll(files);
    try {
      const rows = await this.db
        .insert(kycDocuments)
        .values(stored.map((item, index) => ({ userId, kind: files[index]!.fieldName, ...item })))
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
   * `POST user/commit`: check the saved draft against every rule (spec §5 through
   * `basicKycSubmissionSchema`; countries of the list; proof of address dated within 90 days; every
   * document the ID type needs), then freeze it, move to Under Review and record when a decision is
   * due (1 Hong Kong working day later). Nothing changes when a rule fails.
   * @throws RequestValidationError (422) naming every failing field; DomainError KYC_LOCKED while
   *   Under Review or once Verified (a second commit).
   */
  async commit(userId: string): Promise<BasicKycState> {
    const now = this.now();
    const today = dayjs(now).tz(BUSINESS_TIME_ZONE).format('YYYY-MM-DD');
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
    const proofDate = draft.proofOfAddressDate;
    if (proofDate && dayjs(proofDate, 'YYYY-MM-DD', true).isValid()) {
      const oldest = dayjs(today).subtract(PROOF_OF_ADDRESS_AGE_DAYS_MAX, 'day').format('YYYY-MM-DD');
      if (proofDate > today || proofDate < oldest)
        issues.push(
          fieldIssue('proofOfAddressDate', 'validation.proofOfAddressOld', { days: PROOF_OF_ADDRESS_AGE_DAYS_MAX }),
        );
    }
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

  /** Submissions of one status (default Under Review), oldest submission first, one page. */
  async listForReview(query: { pageID: number; pageSize: number; status: number }): Promise<Page<OpsKycSubmission>> {
    const where = eq(kycBasic.status, query.status);
    const [total] = await this.db.select({ value: count() }).from(kycBasic).where(where);
    const rows = await this.db
      .select()
      .from(kycBasic)
      .where(where)
      .orderBy(asc(kycBasic.submittedAt), asc(kycBasic.userId))
      .limit(query.pageSize)
      .offset((query.pageID - 1) * query.pageSize);
    const list = await Promise.all(rows.map((row) => this.opsView(row)));
    const totalCount = Number(total?.value ?? 0);
    return {
      list,
      pageID: query.pageID,
      pageSize: query.pageSize,
      totalCount,
      totalPage: totalPages(totalCount, query.pageSize),
    };
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

  /**
   * Approve a submission Under Review: Verified, the decision audited, the user told (message and
   * email, in their language), then the user's level raised to 1 (never lowered).
   * @throws DomainError NOT_FOUND; KYC_STATE_CHANGED when it is not Under Review.
   */
  async approve(operatorEmail: string, userId: string): Promise<OpsKycSubmission> {
    await this.decide(operatorEmail, userId, 'approve', null);
    if ((await this.deps.identity.kycLevelOf(userId)) < 1) await this.deps.identity.setKycLevel(userId, 1);
    return this.showForReview(userId);
  }

  /**
   * Reject a submission Under Review with a reason the user sees: Failed, the decision audited, the
   * user told; the draft stays, so the user fixes it and commits again.
   * @throws DomainError NOT_FOUND; KYC_STATE_CHANGED when it is not Under Review.
   */
  async reject(operatorEmail: string, userId: string, reason: string): Promise<OpsKycSubmission> {
    await this.decide(operatorEmail, userId, 'reject', reason);
    return this.showForReview(userId);
  }

  private async decide(
    operatorEmail: string,
    userId: string,
    decision: 'approve' | 'reject',
    reason: string | null,
  ): Promise<void> {
    const now = this.now();
    await this.db.transaction(async (tx) => {
      const [row] = await tx.select().from(kycBasic).where(eq(kycBasic.userId, userId)).for('update');
      if (!row) throw new DomainError('NOT_FOUND');
      if (row.status !== KYC_STATUS.UNDER_REVIEW) throw new DomainError('KYC_STATE_CHANGED');
      const isApproved = decision === 'approve';
      await tx
        .update(kycBasic)
        .set({
          status: isApproved ? KYC_STATUS.VERIFIED : KYC_STATUS.FAILED,
          message: reason ?? '',
          decidedAt: now,
          expectedDecisionAt: null,
          updatedAt: now,
        })
        .where(eq(kycBasic.userId, userId));
      await tx
        .insert(kycDecisions)
        .values({ userId, subject: 'basic', decision, operatorEmail, reason, submission: row.submitted });
      await this.deps.notify(
        isApproved
          ? {
              userId,
              category: 'KYC',
              title: { 'en-US': 'Identity verified', 'zh-HK': '身份認證已通過' },
              body: {
                'en-US':
                  'Your identity verification was approved. Withdrawals, exchange and card applications are now open to you.',
                'zh-HK': '你的身份認證已獲批准，現可使用提現、兌換及申請卡片。',
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
              params: { reason: reason ?? '' },
              link: '/identity/basic',
            },
        tx,
      );
    });
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
    const score = scoreAmlAnswers(answers as AmlAnswers);
    await this.db.insert(kycAmlAnswers).values({
      userId,
      answers: answers as unknown as Record<string, unknown>,
      points: score.points,
      level: score.level,
      matchedRules: score.matchedRules,
      status: score.needsEnhancedReview ? 'enhancedReview' : 'accepted',
    });
    await this.refreshLevel(userId);
    return this.amlState(userId);
  }

  /** `GET investor/tax`: the form on file (the TIN masked but for its last 4 characters). */
  async taxState(userId: string): Promise<TaxState> {
    const rows = await this.db
      .select()
      .from(kycTaxForms)
      .where(eq(kycTaxForms.userId, userId))
      .orderBy(desc(kycTaxForms.id));
    const current = rows.find((row) => row.supersededAt === null);
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
      await tx
        .update(kycTaxForms)
        .set({ supersededAt: now })
        .where(and(eq(kycTaxForms.userId, userId), isNull(kycTaxForms.supersededAt)));
      await tx
        .insert(kycTaxForms)
        .values({ userId, form: input.form, data: input as unknown as Record<string, unknown> });
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

  /**
   * A reviewer's decision on the investor profile (Under Review → Verified / Failed) or on AML
   * answers in enhanced review (→ accepted / rejected): audited, messaged to the user, and the
   * level recomputed.
   * @throws DomainError NOT_FOUND; KYC_STATE_CHANGED when nothing of that step awaits a decision.
   */
  async decideStep(
    operatorEmail: string,
    userId: string,
    step: 'investor' | 'aml' | 'qualified',
    decision: 'approve' | 'reject',
    reason: string | null,
  ): Promise<OpsKycSubmission> {
    const now = this.now();
    const isApproved = decision === 'approve';
    await this.db.transaction(async (tx) => {
      let submission: Record<string, unknown> | null;
      if (step === 'investor') {
        const [row] = await tx.select().from(kycInvestor).where(eq(kycInvestor.userId, userId)).for('update');
        if (!row) throw new DomainError('NOT_FOUND');
        if (row.status !== KYC_STATUS.UNDER_REVIEW) throw new DomainError('KYC_STATE_CHANGED');
        await tx
          .update(kycInvestor)
          .set({
            status: isApproved ? KYC_STATUS.VERIFIED : KYC_STATUS.FAILED,
            message: reason ?? '',
            decidedAt: now,
            expectedDecisionAt: null,
            updatedAt: now,
          })
          .where(eq(kycInvestor.userId, userId));
        submission = row.submitted;
      } else if (step === 'qualified') {
        const [row] = await tx.select().from(kycQualified).where(eq(kycQualified.userId, userId)).for('update');
        if (!row) throw new DomainError('NOT_FOUND');
        if (row.status !== KYC_STATUS.UNDER_REVIEW) throw new DomainError('KYC_STATE_CHANGED');
        await tx
          .update(kycQualified)
          .set({
            status: isApproved ? KYC_STATUS.VERIFIED : KYC_STATUS.FAILED,
            message: reason ?? '',
            decidedAt: now,
            expectedDecisionAt: null,
            validUntil: isApproved ? dayjs(now).add(QUALIFIED_VALIDITY_MONTHS, 'month').toDate() : null,
            reminderSentAt: null,
            updatedAt: now,
          })
          .where(eq(kycQualified.userId, userId));
        submission = row.submitted;
      } else {
        const [row] = await tx
          .select()
          .from(kycAmlAnswers)
          .where(eq(kycAmlAnswers.userId, userId))
          .orderBy(desc(kycAmlAnswers.id))
          .limit(1)
          .for('update');
        if (!row) throw new DomainError('NOT_FOUND');
        if (row.status !== 'enhancedReview') throw new DomainError('KYC_STATE_CHANGED');
        await tx
          .update(kycAmlAnswers)
          .set({ status: isApproved ? 'accepted' : 'rejected' })
          .where(eq(kycAmlAnswers.id, row.id));
        submission = row.answers;
      }
      await tx.insert(kycDecisions).values({ userId, subject: step, decision, operatorEmail, reason, submission });
      const what = STEP_NAMES[step];
      await this.deps.notify(
        isApproved
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
              params: { reason: reason ?? '' },
              link: step === 'investor' ? '/identity/investor' : step === 'aml' ? '/identity/aml' : '/identity/qualify',
            },
        tx,
      );
    });
    if (step === 'qualified' && isApproved) await this.deps.identity.setKycLevel(userId, 3);
    else await this.refreshLevel(userId);
    return this.showForReview(userId);
  }

  /**
   * Level 2 (issue 15 level table) once basic KYC is Verified, the investor profile Verified, the
   * current AML answers accepted and a tax form on file; the level is raised, never lowered here.
   */
  async refreshLevel(userId: string): Promise<void> {
    const [basic, investor, aml, tax] = await Promise.all([
      this.row(userId),
      this.investorRow(userId),
      this.db
        .select({ status: kycAmlAnswers.status })
        .from(kycAmlAnswers)
        .where(eq(kycAmlAnswers.userId, userId))
        .orderBy(desc(kycAmlAnswers.id))
        .limit(1),
      this.db
        .select({ id: kycTaxForms.id })
        .from(kycTaxForms)
        .where(and(eq(kycTaxForms.userId, userId), isNull(kycTaxForms.supersededAt)))
        .limit(1),
    ]);
    const isComplete =
      basic?.status === KYC_STATUS.VERIFIED &&
      investor?.status === KYC_STATUS.VERIFIED &&
      aml[0]?.status === 'accepted' &&
      tax.length > 0;
    if (isComplete && (await this.deps.identity.kycLevelOf(userId)) < 2)
      await this.deps.identity.setKycLevel(userId, 2);
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
}
