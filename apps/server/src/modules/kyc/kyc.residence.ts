import {
  type ResidenceChangeInput,
  type ResidenceChangeState,
  TAX_CHANGE_REPORT_DAYS,
  KYC_REVIEW_WORKING_DAYS,
  KYC_STATUS,
} from '@meridian/contracts/kyc';
import dayjs from 'dayjs';
import { and, desc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import { hongKongDay } from '../../platform/calendar/business-calendar.ts';
import type { Tx } from '../../platform/db/client.ts';
import { DomainError } from '../../platform/http/errors.ts';
import { RequestValidationError } from '../../platform/http/validation.ts';
import { kycBasic, kycResidenceChanges } from './kyc.tables.ts';
import { type KycContext, basicRow, fieldIssue, proofOfAddressDateIssue, currentDocuments } from './kyc.internal.ts';
import { supersedeTaxForm } from './kyc.tax.ts';

/** `GET user/identity/residence`: the newest reported change of residence, if any. */
export async function residenceState(ctx: KycContext, userId: string): Promise<ResidenceChangeState> {
  const [row] = await ctx.db
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

/** Whether `userId` has a change of residence Under Review. */
export async function openResidenceChange(ctx: KycContext, userId: string): Promise<boolean> {
  const rows = await ctx.db
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
export async function applyResidenceChange(
  ctx: KycContext,
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
  await ctx.deps.notify(
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

/** Changes of residence of a verified user: state and report (applied when a reviewer approves). Part of the KYC service (`kyc.service.ts`). */
export function createResidenceSteps(ctx: KycContext) {
  return {
    residenceState: (userId: string) => residenceState(ctx, userId),
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
      const now = ctx.now();
      const basic = await basicRow(ctx, userId);
      if (basic?.status !== KYC_STATUS.VERIFIED || !basic.submitted || !basic.decidedAt)
        throw new DomainError('KYC_NOT_VERIFIED');
      if (await openResidenceChange(ctx, userId)) throw new DomainError('KYC_LOCKED');
      const issues: z.core.$ZodIssue[] = [];
      if (!ctx.deps.isKnownCountry(input.residence)) issues.push(fieldIssue('residence', 'validation.country'));
      if (input.residence === basic.submitted.residence && input.address === basic.submitted.address)
        issues.push(fieldIssue('address', 'validation.residenceUnchanged'));
      const issue = proofOfAddressDateIssue(input.proofOfAddressDate, now);
      if (issue) issues.push(issue);
      const proof = (await currentDocuments(ctx, userId)).get('proofOfAddress');
      if (!proof || proof.createdAt.getTime() <= basic.decidedAt.getTime())
        issues.push(fieldIssue('proofOfAddress', 'validation.documentRequired'));
      if (issues.length > 0 || !proof) throw new RequestValidationError(issues);
      const inserted = await ctx.db
        .insert(kycResidenceChanges)
        .values({
          userId,
          status: KYC_STATUS.UNDER_REVIEW,
          previousResidence: String(basic.submitted.residence ?? ''),
          submitted: { ...input, documents: { proofOfAddress: proof.id } },
          submittedAt: now,
          expectedDecisionAt: ctx.deps.calendar.addWorkingDays(now, KYC_REVIEW_WORKING_DAYS),
        })
        // The partial unique index allows one change Under Review per user: a concurrent second report adds nothing.
        .onConflictDoNothing()
        .returning({ id: kycResidenceChanges.id });
      if (inserted.length === 0) throw new DomainError('KYC_LOCKED');
      return residenceState(ctx, userId);
    },
  };
}
