import {
  type BasicKycDraft,
  type BasicKycState,
  basicKycSubmissionSchema,
  KYC_REVIEW_WORKING_DAYS,
  KYC_STATUS,
  requiredDocumentKinds,
} from '@meridian/contracts/kyc';
import { inArray } from 'drizzle-orm';
import type { z } from 'zod';
import { hongKongDay } from '../../platform/calendar/business-calendar.ts';
import { DomainError } from '../../platform/http/errors.ts';
import { RequestValidationError } from '../../platform/http/validation.ts';
import { kycBasic } from './kyc.tables.ts';
import {
  type KycContext,
  basicRow,
  stateOf,
  assertEditable,
  fieldIssue,
  proofOfAddressDateIssue,
  currentDocuments,
  isIdType,
} from './kyc.internal.ts';

/** `GET user/info`: the draft, the review state and the current documents. */
export async function state(ctx: KycContext, userId: string): Promise<BasicKycState> {
  const row = await basicRow(ctx, userId);
  return stateOf(ctx, userId, row);
}

/** Basic identity verification (`user/info`, `user/commit`): the draft and its submission. Part of the KYC service (`kyc.service.ts`). */
export function createBasicSteps(ctx: KycContext) {
  return {
    state: (userId: string) => state(ctx, userId),
    /**
     * `POST user/info`: merge `draft` into the saved draft (a field sent empty clears it).
     * @throws DomainError KYC_LOCKED while Under Review or once Verified.
     */
    async saveDraft(userId: string, draft: BasicKycDraft): Promise<BasicKycState> {
      const row = await basicRow(ctx, userId);
      assertEditable(row);
      const merged: BasicKycDraft = { ...(row?.draft ?? {}), ...draft };
      await ctx.db
        .insert(kycBasic)
        .values({ userId, draft: merged, updatedAt: ctx.now() })
        .onConflictDoUpdate({ target: kycBasic.userId, set: { draft: merged, updatedAt: ctx.now() } });
      return state(ctx, userId);
    },
    /**
     * `POST user/commit`: check the saved draft against every rule (through
     * `basicKycSubmissionSchema`; countries of the list; proof of address dated within 90 days; every
     * document the ID type needs), then freeze it, move to Under Review and record when a decision is
     * due (1 Hong Kong working day later). Nothing changes when a rule fails.
     * @throws RequestValidationError (422) naming every failing field; DomainError KYC_LOCKED while
     *   Under Review or once Verified (a second commit).
     */
    async commit(userId: string): Promise<BasicKycState> {
      const now = ctx.now();
      const today = hongKongDay(now);
      const row = await basicRow(ctx, userId);
      assertEditable(row);
      const draft = row?.draft ?? {};
      const issues: z.core.$ZodIssue[] = [];
      const parsed = basicKycSubmissionSchema(() => today).safeParse(draft);
      if (!parsed.success) issues.push(...parsed.error.issues);
      for (const field of ['nationality', 'residence'] as const) {
        const code = draft[field];
        if (code && /^[A-Z]{2}$/.test(code) && !ctx.deps.isKnownCountry(code))
          issues.push(fieldIssue(field, 'validation.country'));
      }
      const proofIssue = proofOfAddressDateIssue(draft.proofOfAddressDate, now);
      if (proofIssue) issues.push(proofIssue);
      const documents = await currentDocuments(ctx, userId);
      const needed = isIdType(draft.idType) ? requiredDocumentKinds(draft.idType) : requiredDocumentKinds('nationalId');
      for (const kind of needed) if (!documents.has(kind)) issues.push(fieldIssue(kind, 'validation.documentRequired'));
      if (issues.length > 0 || !parsed.success) throw new RequestValidationError(issues);

      const submitted = {
        ...parsed.data,
        documents: Object.fromEntries(needed.map((kind) => [kind, documents.get(kind)!.id])),
      };
      const expectedDecisionAt = ctx.deps.calendar.addWorkingDays(now, KYC_REVIEW_WORKING_DAYS);
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
      const updated = await ctx.db
        .insert(kycBasic)
        .values({ userId, draft, ...values })
        .onConflictDoUpdate({
          target: kycBasic.userId,
          set: values,
          setWhere: inArray(kycBasic.status, [KYC_STATUS.NONE, KYC_STATUS.FAILED]),
        })
        .returning({ userId: kycBasic.userId });
      if (updated.length === 0) throw new DomainError('KYC_LOCKED');
      return state(ctx, userId);
    },
  };
}
