import {
  QUALIFIED_REMINDER_DAYS,
  type QualifyState,
  type QualifySubmission,
  KYC_REVIEW_WORKING_DAYS,
  KYC_STATUS,
} from '@meridian/contracts/kyc';
import dayjs from 'dayjs';
import { and, eq, inArray, lte } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { DomainError, FieldError } from '../../platform/http/errors.ts';
import { kycDocuments, kycQualified } from './kyc.tables.ts';
import { type KycContext } from './kyc.internal.ts';

/** `GET investor/qualify`. */
export async function qualifyState(ctx: KycContext, userId: string): Promise<QualifyState> {
  const [row] = await ctx.db.select().from(kycQualified).where(eq(kycQualified.userId, userId)).limit(1);
  return {
    status: row?.status ?? KYC_STATUS.NONE,
    message: row?.message ?? '',
    submitted: row?.submitted ?? null,
    submittedAt: row?.submittedAt?.toISOString() ?? null,
    expectedDecisionAt: row?.expectedDecisionAt?.toISOString() ?? null,
    validUntil: row?.validUntil?.toISOString() ?? null,
  };
}

/** The qualified-investor application (level 3): state, submission and the yearly expiry. Part of the KYC service (`kyc.service.ts`). */
export function createQualifiedSteps(ctx: KycContext) {
  return {
    qualifyState: (userId: string) => qualifyState(ctx, userId),
    /**
     * `POST investor/qualify`: the declaration (thresholds checked by `qualifySubmissionSchema`) with
     * the evidence files uploaded as `qualifiedEvidence`; Under Review, decided in 1 working day.
     * Allowed when none, Failed or Expired.
     * @throws FieldError `qualifiedEvidence` when no evidence is uploaded; DomainError KYC_LOCKED.
     */
    async applyQualified(userId: string, input: QualifySubmission): Promise<QualifyState> {
      const evidence = await ctx.db
        .select({ id: kycDocuments.id })
        .from(kycDocuments)
        .where(and(eq(kycDocuments.userId, userId), eq(kycDocuments.kind, 'qualifiedEvidence')));
      if (evidence.length === 0) throw new FieldError('qualifiedEvidence', 'validation.documentRequired');
      const now = ctx.now();
      const values = {
        status: KYC_STATUS.UNDER_REVIEW,
        message: '',
        submitted: { ...input, documents: evidence.map((item) => item.id) },
        submittedAt: now,
        expectedDecisionAt: ctx.deps.calendar.addWorkingDays(now, KYC_REVIEW_WORKING_DAYS),
        decidedAt: null,
        validUntil: null,
        reminderSentAt: null,
        updatedAt: now,
      };
      const updated = await ctx.db
        .insert(kycQualified)
        .values({ userId, ...values })
        .onConflictDoUpdate({
          target: kycQualified.userId,
          set: values,
          setWhere: inArray(kycQualified.status, [KYC_STATUS.NONE, KYC_STATUS.FAILED, KYC_STATUS.EXPIRED]),
        })
        .returning({ userId: kycQualified.userId });
      if (updated.length === 0) throw new DomainError('KYC_LOCKED');
      return qualifyState(ctx, userId);
    },
    /**
     * The daily qualified-investor check (job `kyc.qualified-expiry`): 30 days before an approval
     * ends the user is told once; at its end the status becomes Expired, the level drops back to 2
     * and the user is told.
     * Runs on `db`: the job passes its transaction, which on the embedded database holds the only
     * connection (a statement on another handle would wait for it forever).
     * @returns how many reminders and expiries were made.
     */
    async runQualifiedExpiry(
      now: Date = ctx.now(),
      db: DbOrTx = ctx.db,
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
            await ctx.deps.notify(
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
          if ((await ctx.deps.identity.kycLevelOf(row.userId, db)) >= 2)
            await ctx.deps.identity.setKycLevel(row.userId, 2, db);
          expired += 1;
        } else if (row.reminderSentAt === null) {
          await db.transaction(async (tx) => {
            await tx.update(kycQualified).set({ reminderSentAt: now }).where(eq(kycQualified.userId, row.userId));
            await ctx.deps.notify(
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
    },
  };
}
