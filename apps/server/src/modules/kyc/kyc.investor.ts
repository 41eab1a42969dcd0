import {
  COMPANY_DOCUMENT_KINDS,
  type InvestorDraft,
  type InvestorState,
  investorSubmissionSchema,
  percentHundredths,
  KYC_REVIEW_WORKING_DAYS,
  KYC_STATUS,
} from '@meridian/contracts/kyc';
import { inArray } from 'drizzle-orm';
import type { z } from 'zod';
import { DomainError } from '../../platform/http/errors.ts';
import { RequestValidationError } from '../../platform/http/validation.ts';
import { kycInvestor } from './kyc.tables.ts';
import { type KycContext, investorRow, assertEditable, fieldIssue, currentDocuments } from './kyc.internal.ts';

/** `GET user/identity/investor`. */
export async function investorState(ctx: KycContext, userId: string): Promise<InvestorState> {
  const row = await investorRow(ctx, userId);
  return {
    status: row?.status ?? KYC_STATUS.NONE,
    message: row?.message ?? '',
    draft: row?.draft ?? {},
    submitted: row?.submitted ?? null,
    submittedAt: row?.submittedAt?.toISOString() ?? null,
    expectedDecisionAt: row?.expectedDecisionAt?.toISOString() ?? null,
  };
}

/** The investor profile (level 2): draft, state and submission. Part of the KYC service (`kyc.service.ts`). */
export function createInvestorSteps(ctx: KycContext) {
  return {
    investorState: (userId: string) => investorState(ctx, userId),
    /** `POST user/identity/investor`: replace the saved draft. @throws DomainError KYC_LOCKED while Under Review or once Verified. */
    async saveInvestorDraft(userId: string, draft: InvestorDraft): Promise<InvestorState> {
      assertEditable(await investorRow(ctx, userId));
      await ctx.db
        .insert(kycInvestor)
        .values({ userId, draft, updatedAt: ctx.now() })
        .onConflictDoUpdate({ target: kycInvestor.userId, set: { draft, updatedAt: ctx.now() } });
      return investorState(ctx, userId);
    },
    /**
     * `POST user/identity/commit`: check the investor draft (`investorSubmissionSchema`; a company's
     * country of incorporation in the list, beneficial owners' shares at most 100 % in total, its
     * certificate of incorporation and register of directors uploaded), then Under Review with a
     * decision due in 1 Hong Kong working day.
     * @throws RequestValidationError naming every failing field; DomainError KYC_LOCKED.
     */
    async commitInvestor(userId: string): Promise<InvestorState> {
      const now = ctx.now();
      const row = await investorRow(ctx, userId);
      assertEditable(row);
      const draft = row?.draft ?? {};
      const parsed = investorSubmissionSchema.safeParse(draft);
      const issues: z.core.$ZodIssue[] = parsed.success ? [] : [...parsed.error.issues];
      let documentIds: Record<string, string> = {};
      if (parsed.success && parsed.data.type === 'company') {
        const { company } = parsed.data;
        if (!ctx.deps.isKnownCountry(company.countryOfIncorporation))
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
        const documents = await currentDocuments(ctx, userId);
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
        expectedDecisionAt: ctx.deps.calendar.addWorkingDays(now, KYC_REVIEW_WORKING_DAYS),
        decidedAt: null,
        updatedAt: now,
      };
      const updated = await ctx.db
        .insert(kycInvestor)
        .values({ userId, draft, ...values })
        .onConflictDoUpdate({
          target: kycInvestor.userId,
          set: values,
          setWhere: inArray(kycInvestor.status, [KYC_STATUS.NONE, KYC_STATUS.FAILED]),
        })
        .returning({ userId: kycInvestor.userId });
      if (updated.length === 0) throw new DomainError('KYC_LOCKED');
      return investorState(ctx, userId);
    },
  };
}
