import { z } from 'zod';
import { defineEndpoint } from '../endpoint.ts';
import { decimalAmountSchema } from '../money.ts';
import { opsKycSubmissionSchema, opsKycRejectBodySchema } from './review.ts';
import { stepParamsSchema } from './tax.ts';

// ---------------------------------------------------------------- qualified investor (level 3)

/** The Hong Kong professional-investor thresholds (Securities and Futures (Professional Investor) Rules, Cap. 571D): HK$ amounts. */
export const QUALIFIED_INDIVIDUAL_PORTFOLIO_HKD_MIN = '8000000';
export const QUALIFIED_CORPORATION_ASSETS_HKD_MIN = '40000000';
/** How long an approval lasts, and how long before its end the user is told. */
export const QUALIFIED_VALIDITY_MONTHS = 12;
export const QUALIFIED_REMINDER_DAYS = 30;

/** Decimals of a HK$ amount (cents). */
const HKD_DECIMALS = 2;

/**
 * A HK$ amount: the contracts' wire amount (`decimalAmountSchema`: a plain non-negative decimal
 * string, never a JS number) with at most 2 decimals. A refused format aborts, so the threshold
 * refinements below only ever see a well-formed amount.
 */
const hkdAmountSchema = decimalAmountSchema.refine((value) => (value.split('.')[1]?.length ?? 0) <= HKD_DECIMALS, {
  error: 'validation.amountPrecision',
  params: { decimals: HKD_DECIMALS },
  abort: true,
});

/**
 * Whether decimal strings `a` ≥ `b` (both non-negative, at most 2 decimals), compared in cents as
 * bigint. False (never a throw) when either is not such a decimal.
 */
export function isHkdAtLeast(a: string, b: string): boolean {
  const cents = (value: string): bigint | null => {
    const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(value);
    if (!match) return null;
    return BigInt(match[1] ?? '0') * 100n + BigInt((match[2] ?? '').padEnd(HKD_DECIMALS, '0'));
  };
  const left = cents(a);
  const right = cents(b);
  return left !== null && right !== null && left >= right;
}

/**
 * `POST investor/qualify`: the professional-investor test by declaration plus evidence
 * files (uploaded as `qualifiedEvidence`): an individual's portfolio of at least HK$8 million, or a
 * corporation's total assets of at least HK$40 million.
 */
export const qualifySubmissionSchema = z.discriminatedUnion(
  'type',
  [
    z.object({
      type: z.literal('individual'),
      portfolioHkd: hkdAmountSchema.refine((value) => isHkdAtLeast(value, QUALIFIED_INDIVIDUAL_PORTFOLIO_HKD_MIN), {
        error: 'validation.qualifiedThreshold',
        params: { minimum: 'HK$8,000,000' },
      }),
      isDeclared: z.literal(true, { error: 'validation.declaration' }),
    }),
    z.object({
      type: z.literal('corporation'),
      totalAssetsHkd: hkdAmountSchema.refine((value) => isHkdAtLeast(value, QUALIFIED_CORPORATION_ASSETS_HKD_MIN), {
        error: 'validation.qualifiedThreshold',
        params: { minimum: 'HK$40,000,000' },
      }),
      isDeclared: z.literal(true, { error: 'validation.declaration' }),
    }),
  ],
  { error: 'validation.investorType' },
);
export type QualifySubmission = z.output<typeof qualifySubmissionSchema>;

/** `GET/POST investor/qualify`: the review state and, once approved, until when it holds. */
export const qualifyStateSchema = z.object({
  status: z.number().int(),
  message: z.string(),
  submitted: z.record(z.string(), z.unknown()).nullable(),
  submittedAt: z.string().nullable(),
  expectedDecisionAt: z.string().nullable(),
  validUntil: z.string().nullable(),
});
export type QualifyState = z.infer<typeof qualifyStateSchema>;

export const qualifyEndpoints = {
  qualification: defineEndpoint({
    method: 'GET',
    path: '/investor/qualify',
    tag: 'kyc',
    summary: 'Qualified-investor status',
    auth: 'user',
    kyc: 'investor',
    content: qualifyStateSchema,
  }),
  qualify: defineEndpoint({
    method: 'POST',
    path: '/investor/qualify',
    tag: 'kyc',
    summary: 'Apply as a qualified (professional) investor: declaration and evidence files; reviewed; valid 12 months',
    auth: 'user',
    kyc: 'investor',
    body: qualifySubmissionSchema,
    content: qualifyStateSchema,
    codes: ['KYC_LOCKED'],
  }),
};

/** Reviewers' decisions on the investor profile, on an AML questionnaire in enhanced review, and on a qualified-investor application. */
export const opsKycStepEndpoints = {
  approveStep: defineEndpoint({
    method: 'POST',
    path: '/admin/kyc/:userId/:step/approve',
    tag: 'back-office',
    summary:
      'Approve the investor profile or a qualified-investor application, or accept an AML questionnaire after enhanced review',
    auth: 'operator',
    roles: ['compliance'],
    params: stepParamsSchema,
    content: opsKycSubmissionSchema,
    codes: ['FORBIDDEN', 'NOT_FOUND', 'KYC_STATE_CHANGED'],
  }),
  rejectStep: defineEndpoint({
    method: 'POST',
    path: '/admin/kyc/:userId/:step/reject',
    tag: 'back-office',
    summary:
      'Reject the investor profile, a qualified-investor application or an AML questionnaire, with a reason shown to the user',
    auth: 'operator',
    roles: ['compliance'],
    params: stepParamsSchema,
    body: opsKycRejectBodySchema,
    content: opsKycSubmissionSchema,
    codes: ['FORBIDDEN', 'NOT_FOUND', 'KYC_STATE_CHANGED'],
  }),
};
