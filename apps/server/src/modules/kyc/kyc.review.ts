import {
  AML_STATUS_AS_KYC_STATUS,
  AML_STATUSES,
  type KycReviewStep,
  KYC_REVIEW_STEPS,
  type OpsKycQueueItem,
  type AmlStatus,
  QUALIFIED_VALIDITY_MONTHS,
  KYC_REVIEW_WORKING_DAYS,
  KYC_STATUS,
  type OpsKycSubmission,
} from '@meridian/contracts/kyc';
import { type Page, totalPages } from '@meridian/contracts/pagination';
import dayjs from 'dayjs';
import { and, asc, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../platform/db/client.ts';
import { DomainError } from '../../platform/http/errors.ts';
import type { NotifyInput } from '../notices/notices.service.ts';
import {
  kycAmlAnswers,
  kycBasic,
  kycDecisions,
  kycDocuments,
  kycInvestor,
  kycQualified,
  kycResidenceChanges,
} from './kyc.tables.ts';
import { type KycContext, basicRow, investorRow, type BasicRow, toDocument } from './kyc.internal.ts';
import { refreshLevel } from './kyc.levels.ts';
import { applyResidenceChange } from './kyc.residence.ts';

/** A row of the review queue's union: the user, the step, and the row id of steps with several rows per user. */
export interface QueueRow {
  user_id: string;
  step: KycReviewStep;
  /** `kyc_aml_answers.id` or `kyc_residence_changes.id` (bigint, as the driver returns it); null otherwise. */
  ref: string | number | null;
}

/** The rows of a raw `db.execute` answer (both drivers return `{ rows }`). */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/**
 * The queue's part for one step: `user_id, step, submitted_at, ref` of the rows of `status`
 * (`KYC_STATUS`), or null when the step has no such status (AML answers know 1, 2 and 3 only).
 */
export function queueSelect(step: KycReviewStep, status: number): SQL | null {
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
export const STEP_NAMES = {
  investor: { 'en-US': 'Investor profile', 'zh-HK': '投資者資料' },
  aml: { 'en-US': 'AML questionnaire', 'zh-HK': '反洗錢問卷' },
  qualified: { 'en-US': 'Qualified investor application', 'zh-HK': '合格投資者申請' },
  residence: { 'en-US': 'Change of residence', 'zh-HK': '居住地變更' },
} as const;

/** Where the web takes a user to submit a step again. */
export const STEP_ROUTES: Record<KycReviewStep, string> = {
  basic: '/identity/basic',
  investor: '/identity/investor',
  aml: '/identity/aml',
  qualified: '/identity/qualify',
  residence: '/identity/residence',
};

/** The message telling the user of a decision on `step` (KYC category: also sent by email). */
export function decisionNotice(step: KycReviewStep, userId: string, isApproved: boolean, reason: string): NotifyInput {
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

/** One queue entry: the user's review view with the queued step's own state laid over it. */
export async function queueItem(ctx: KycContext, row: QueueRow): Promise<OpsKycQueueItem> {
  const view = await showForReview(ctx, row.user_id);
  const own = await stepState(ctx, row.step, row.user_id, row.ref === null ? null : Number(row.ref));
  return { ...view, ...own, step: row.step };
}

/** The state of one step's submission, as the queue shows it (`basic`: nothing to add). */
export async function stepState(
  ctx: KycContext,
  step: KycReviewStep,
  userId: string,
  ref: number | null,
): Promise<Partial<Pick<OpsKycSubmission, 'status' | 'message' | 'submitted' | 'submittedAt' | 'expectedDecisionAt'>>> {
  const iso = (value: Date | null | undefined) => value?.toISOString() ?? null;
  if (step === 'investor' || step === 'qualified') {
    const table = step === 'investor' ? kycInvestor : kycQualified;
    const [row] = await ctx.db.select().from(table).where(eq(table.userId, userId)).limit(1);
    if (!row) return {};
    const { status, message, submitted, submittedAt, expectedDecisionAt } = row;
    return { status, message, submitted, submittedAt: iso(submittedAt), expectedDecisionAt: iso(expectedDecisionAt) };
  }
  if (step === 'aml' && ref !== null) {
    const [row] = await ctx.db.select().from(kycAmlAnswers).where(eq(kycAmlAnswers.id, ref)).limit(1);
    if (!row) return {};
    const isOpen = row.status === 'enhancedReview';
    return {
      status: AML_STATUS_AS_KYC_STATUS[row.status as AmlStatus],
      message: '',
      submitted: { ...row.answers, points: row.points, level: row.level, matchedRules: row.matchedRules },
      submittedAt: row.createdAt.toISOString(),
      expectedDecisionAt: isOpen
        ? ctx.deps.calendar.addWorkingDays(row.createdAt, KYC_REVIEW_WORKING_DAYS).toISOString()
        : null,
    };
  }
  if (step === 'residence' && ref !== null) {
    const [row] = await ctx.db.select().from(kycResidenceChanges).where(eq(kycResidenceChanges.id, ref)).limit(1);
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
export async function showForReview(ctx: KycContext, userId: string): Promise<OpsKycSubmission> {
  const row = await basicRow(ctx, userId);
  if (row) return opsView(ctx, row);
  // No basic KYC row (a level given otherwise): shown when another step has something.
  const [investor, qualified, aml] = await Promise.all([
    investorRow(ctx, userId),
    ctx.db.select({ userId: kycQualified.userId }).from(kycQualified).where(eq(kycQualified.userId, userId)).limit(1),
    ctx.db.select({ id: kycAmlAnswers.id }).from(kycAmlAnswers).where(eq(kycAmlAnswers.userId, userId)).limit(1),
  ]);
  if (!investor && qualified.length === 0 && aml.length === 0) throw new DomainError('NOT_FOUND');
  const now = ctx.now();
  return opsView(ctx, {
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
export async function decideStep(
  ctx: KycContext,
  operatorEmail: string,
  userId: string,
  step: KycReviewStep,
  decision: 'approve' | 'reject',
  reason: string | null,
): Promise<OpsKycSubmission> {
  const now = ctx.now();
  const isApproved = decision === 'approve';
  await ctx.db.transaction(async (tx) => {
    const submission = await closeReview(ctx, tx, step, userId, isApproved, reason ?? '', now);
    await tx
      .insert(kycDecisions)
      .values({ userId, subject: step, decision, operatorEmail, reason, submission, createdAt: now });
    await ctx.deps.notify(decisionNotice(step, userId, isApproved, reason ?? ''), tx);
  });
  if (isApproved && step === 'basic') {
    if ((await ctx.deps.identity.kycLevelOf(userId)) < 1) await ctx.deps.identity.setKycLevel(userId, 1);
  } else if (isApproved && step === 'qualified') await ctx.deps.identity.setKycLevel(userId, 3);
  else if (step !== 'basic' && step !== 'residence') await refreshLevel(ctx, userId);
  return showForReview(ctx, userId);
}

/**
 * Close the review of `step` for `userId` in `tx` (the row locked by its conditional update):
 * the new state, the reason as the message. @returns the submission as it was.
 * @throws DomainError NOT_FOUND; KYC_STATE_CHANGED.
 */
export async function closeReview(
  ctx: KycContext,
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
    if (rows[0] && isApproved) await applyResidenceChange(ctx, tx, rows[0], now);
    changed = rows.map((row) => ({ submitted: row.submitted }));
  }
  if (changed[0]) return changed[0].submitted;
  const hasAny = await hasStepRow(tx, step, userId);
  throw new DomainError(hasAny ? 'KYC_STATE_CHANGED' : 'NOT_FOUND');
}

/** Whether `userId` has any row of `step` (a refused decision's NOT_FOUND or KYC_STATE_CHANGED). */
export async function hasStepRow(db: DbOrTx, step: KycReviewStep, userId: string): Promise<boolean> {
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

/** A basic KYC row as a reviewer sees it: the submission, the documents and every decision. */
export async function opsView(ctx: KycContext, row: BasicRow): Promise<OpsKycSubmission> {
  const recipients = await ctx.deps.identity.recipientsOf([row.userId]);
  const decisions = await ctx.db
    .select()
    .from(kycDecisions)
    .where(eq(kycDecisions.userId, row.userId))
    .orderBy(asc(kycDecisions.createdAt), asc(kycDecisions.id));
  const [investor] = await ctx.db.select().from(kycInvestor).where(eq(kycInvestor.userId, row.userId)).limit(1);
  const [aml] = await ctx.db
    .select()
    .from(kycAmlAnswers)
    .where(eq(kycAmlAnswers.userId, row.userId))
    .orderBy(desc(kycAmlAnswers.id))
    .limit(1);
  const [qualified] = await ctx.db.select().from(kycQualified).where(eq(kycQualified.userId, row.userId)).limit(1);
  const documentIds = Object.values((row.submitted?.documents as Record<string, string> | undefined) ?? {});
  const documents =
    documentIds.length > 0 ? await ctx.db.select().from(kycDocuments).where(inArray(kycDocuments.id, documentIds)) : [];
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

/** The reviewers' side (`/api/admin/kyc/...`): the queue across the steps, one submission, and the decision on any step. Part of the KYC service (`kyc.service.ts`). */
export function createReviewSteps(ctx: KycContext) {
  return {
    showForReview: (userId: string) => showForReview(ctx, userId),
    decideStep: (
      operatorEmail: string,
      userId: string,
      step: KycReviewStep,
      decision: 'approve' | 'reject',
      reason: string | null,
    ) => decideStep(ctx, operatorEmail, userId, step, decision, reason),
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
        await ctx.db.execute(sql`SELECT count(*) AS value FROM (${queue}) AS queue`),
      );
      const rows = rowsOf<QueueRow>(
        await ctx.db.execute(sql`
        SELECT user_id, step, ref FROM (${queue}) AS queue
        ORDER BY submitted_at ASC NULLS LAST, user_id ASC, step ASC, ref ASC
        LIMIT ${query.pageSize} OFFSET ${(query.pageID - 1) * query.pageSize}`),
      );
      const list: OpsKycQueueItem[] = [];
      for (const row of rows) list.push(await queueItem(ctx, row));
      const totalCount = Number(total?.value ?? 0);
      return { ...empty, list, totalCount, totalPage: totalPages(totalCount, query.pageSize) };
    },
    /** Approve basic KYC Under Review (`decideStep` of step `basic`): Verified, level 1. */
    async approve(operatorEmail: string, userId: string): Promise<OpsKycSubmission> {
      return decideStep(ctx, operatorEmail, userId, 'basic', 'approve', null);
    },
    /** Reject basic KYC Under Review with a reason the user sees (`decideStep` of step `basic`): Failed. */
    async reject(operatorEmail: string, userId: string, reason: string): Promise<OpsKycSubmission> {
      return decideStep(ctx, operatorEmail, userId, 'basic', 'reject', reason);
    },
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
        await ctx.db.execute(sql`SELECT count(*) AS size, min(submitted_at) AS oldest FROM (${queue}) AS queue`),
      );
      return { size: Number(row?.size ?? 0), oldestAt: row?.oldest ? new Date(row.oldest) : null };
    },
  };
}
