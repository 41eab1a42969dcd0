import { createAmlSteps } from './kyc.aml.ts';
import { createBasicSteps } from './kyc.basic.ts';
import { createDocumentSteps } from './kyc.documents.ts';
import type { KycContext, KycServiceDeps } from './kyc.internal.ts';
import { createInvestorSteps } from './kyc.investor.ts';
import { createLevels } from './kyc.levels.ts';
import { createQualifiedSteps } from './kyc.qualified.ts';
import { createResidenceSteps } from './kyc.residence.ts';
import { createReviewSteps } from './kyc.review.ts';
import { createTaxSteps } from './kyc.tax.ts';

export type { KycIdentity, KycServiceDeps } from './kyc.internal.ts';

/**
 * Identity verification, every step of it (docs/kyc.md). Basic identity (`user/info`, `user/commit`): the
 * draft, the documents, the submission and its review. States (`KYC_STATUS`): 0 none → 2 Under
 * Review (commit) → 1 Verified (approve, level 1) or 3 Failed (reject with a reason) → 2 again
 * (the user fixes the draft and commits). Under Review and Verified freeze the fields.
 *
 * One object made of the module's parts, one file per step over one shared context
 * (`kyc.internal.ts`): basic identity (`kyc.basic.ts`), documents (`kyc.documents.ts`), the
 * investor profile (`kyc.investor.ts`), the AML questionnaire (`kyc.aml.ts`), tax forms
 * (`kyc.tax.ts`), the qualified-investor application (`kyc.qualified.ts`), changes of residence
 * (`kyc.residence.ts`), the reviewers' side (`kyc.review.ts`) and the level with what other modules
 * read (`kyc.levels.ts`). Other modules, CLIs and tests import this file only.
 */
export function createKycService(deps: KycServiceDeps) {
  const ctx: KycContext = { db: deps.db, now: deps.now, deps, terms: deps.terms };
  return {
    /** Announcements of changes of terms, 7 Hong Kong working days ahead. */
    terms: deps.terms,
    ...createBasicSteps(ctx),
    ...createDocumentSteps(ctx),
    ...createReviewSteps(ctx),
    ...createInvestorSteps(ctx),
    ...createAmlSteps(ctx),
    ...createTaxSteps(ctx),
    ...createQualifiedSteps(ctx),
    ...createResidenceSteps(ctx),
    ...createLevels(ctx),
  };
}

/** The KYC service's type. */
export type KycService = ReturnType<typeof createKycService>;
