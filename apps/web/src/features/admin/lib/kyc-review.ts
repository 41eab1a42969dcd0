import { KYC_REVIEW_STEPS, type KycReviewStep, type OpsKycSubmission } from '@meridian/contracts/kyc';
import { flattenSubmitted, type SubmittedLine } from './flatten-submitted.ts';

/** The review page's step from its `?step=` parameter: one of `KYC_REVIEW_STEPS`, else `basic`. */
export function stepOf(value: string | null): KycReviewStep {
  return KYC_REVIEW_STEPS.find((step) => step === value) ?? 'basic';
}

/** The typed data of the step under review (any JSON, or undefined when the step has none). */
export function submittedDataOf(submission: OpsKycSubmission, step: KycReviewStep): unknown {
  switch (step) {
    case 'investor':
      return submission.investor?.submitted;
    case 'aml':
      return submission.aml;
    case 'qualified':
      return submission.qualified?.submitted;
    default:
      return submission.submitted;
  }
}

/**
 * The step's data as label/value lines for the review page. Document ids are left out: the
 * documents themselves are shown in the panel beside.
 */
export function reviewLinesOf(submission: OpsKycSubmission, step: KycReviewStep): SubmittedLine[] {
  return flattenSubmitted(submittedDataOf(submission, step)).filter((line) => !line.path.startsWith('documents.'));
}
