import { z } from 'zod';
import { uuidString } from '../limits.ts';
import { defineEndpoint } from '../endpoint.ts';
import { pageSchema } from '../pagination.ts';
import { type KycStatus, KYC_STATUS } from './status.ts';
import { kycDocumentSchema } from './documents.ts';
import { documentIdParamsSchema } from './basic.ts';
import { type AmlStatus } from './aml.ts';

// ---------------------------------------------------------------- operators

/** A submission as a reviewer sees it. */
export const opsKycSubmissionSchema = z.object({
  userId: z.string(),
  email: z.string().nullable(),
  status: z.number().int(),
  message: z.string(),
  submitted: z.record(z.string(), z.unknown()).nullable(),
  submittedAt: z.string().nullable(),
  expectedDecisionAt: z.string().nullable(),
  documents: z.array(kycDocumentSchema),
  decisions: z.array(
    z.object({
      subject: z.string(),
      decision: z.enum(['approve', 'reject']),
      operatorEmail: z.string(),
      reason: z.string().nullable(),
      createdAt: z.string(),
    }),
  ),
  /** The investor profile's state, when one was started. */
  investor: z
    .object({ status: z.number().int(), message: z.string(), submitted: z.record(z.string(), z.unknown()).nullable() })
    .nullable(),
  /** The current AML answers' score, when answered. */
  aml: z
    .object({
      status: z.string(),
      level: z.string(),
      points: z.number().int(),
      matchedRules: z.array(z.object({ id: z.string(), points: z.number().int() })),
    })
    .nullable(),
  /** The qualified-investor application, when one was made. */
  qualified: z
    .object({
      status: z.number().int(),
      submitted: z.record(z.string(), z.unknown()).nullable(),
      validUntil: z.string().nullable(),
    })
    .nullable(),
});
export type OpsKycSubmission = z.infer<typeof opsKycSubmissionSchema>;

/**
 * The steps a reviewer decides on, in the order of the levels: basic KYC, the investor profile,
 * AML answers in enhanced review, qualified-investor applications, and changes of residence
 * reported by verified users.
 */
export const KYC_REVIEW_STEPS = ['basic', 'investor', 'aml', 'qualified', 'residence'] as const;
export type KycReviewStep = (typeof KYC_REVIEW_STEPS)[number];

/**
 * AML answer statuses as review statuses (`KYC_STATUS`), so one `status` filters every step:
 * accepted 1, enhanced review 2 (awaiting a decision), rejected 3.
 */
export const AML_STATUS_AS_KYC_STATUS: Record<AmlStatus, KycStatus> = {
  accepted: KYC_STATUS.VERIFIED,
  enhancedReview: KYC_STATUS.UNDER_REVIEW,
  rejected: KYC_STATUS.FAILED,
};

/**
 * `GET admin/kyc`: the review queue. `step` narrows it to one step (default every step); `status`
 * (`KYC_STATUS`, default 2: awaiting a decision — Under Review, or AML answers in enhanced review).
 */
export const opsKycListQuerySchema = z.object({
  pageID: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
  /** Only this step; every step when absent. */
  step: z.enum(KYC_REVIEW_STEPS, { error: 'validation.reviewStep' }).optional(),
  /** Only this status (`KYC_STATUS`); default Under Review. */
  status: z.coerce.number().int().min(0).max(4).default(KYC_STATUS.UNDER_REVIEW),
});

/**
 * One entry of the review queue: the user as `admin/kyc/:userId` shows them, with `step` naming what
 * is queued. `status`, `message`, `submitted`, `submittedAt` and `expectedDecisionAt` are that
 * step's (for `basic` they are basic KYC's, as before `step` existed; for `aml` the answers, with
 * a decision due 1 working day after they were given).
 */
export const opsKycQueueItemSchema = opsKycSubmissionSchema.extend({ step: z.enum(KYC_REVIEW_STEPS) });
export type OpsKycQueueItem = z.infer<typeof opsKycQueueItemSchema>;

export const opsKycRejectBodySchema = z.object({
  reason: z
    .string({ error: 'validation.required' })
    .trim()
    .min(1, { error: 'validation.required' })
    .max(500, { error: 'validation.tooLong' }),
});

const userIdParamsSchema = z.object({ userId: uuidString({ error: 'validation.required' }) });

/** The reviewers' API (`/api/admin/kyc/...`): read by `support` and `compliance`, decided by `compliance` (and `admin`). */
export const opsKycEndpoints = {
  readDocument: defineEndpoint({
    method: 'GET',
    path: '/admin/kyc/documents/:id',
    tag: 'back-office',
    summary: 'The bytes of one identity document (reviewers: compliance or viewer), in its own content type',
    auth: 'operator',
    roles: ['compliance', 'support'],
    params: documentIdParamsSchema,
    content: z.unknown(),
    codes: ['FORBIDDEN', 'NOT_FOUND'],
  }),
  list: defineEndpoint({
    method: 'GET',
    path: '/admin/kyc',
    tag: 'back-office',
    summary:
      'The review queue over every step (basic, investor, aml, qualified, residence), oldest submission first; filter by step and status (default: awaiting a decision)',
    auth: 'operator',
    roles: ['compliance', 'support'],
    query: opsKycListQuerySchema,
    content: pageSchema(opsKycQueueItemSchema),
    codes: ['FORBIDDEN'],
  }),
  show: defineEndpoint({
    method: 'GET',
    path: '/admin/kyc/:userId',
    tag: 'back-office',
    summary: 'One basic KYC submission with its documents and decisions',
    auth: 'operator',
    roles: ['compliance', 'support'],
    params: userIdParamsSchema,
    content: opsKycSubmissionSchema,
    codes: ['FORBIDDEN', 'NOT_FOUND'],
  }),
  approve: defineEndpoint({
    method: 'POST',
    path: '/admin/kyc/:userId/approve',
    tag: 'back-office',
    summary: 'Approve: Verified, level 1',
    auth: 'operator',
    roles: ['compliance'],
    params: userIdParamsSchema,
    content: opsKycSubmissionSchema,
    codes: ['FORBIDDEN', 'NOT_FOUND', 'KYC_STATE_CHANGED'],
  }),
  reject: defineEndpoint({
    method: 'POST',
    path: '/admin/kyc/:userId/reject',
    tag: 'back-office',
    summary: 'Reject with a reason shown to the user: Failed',
    auth: 'operator',
    roles: ['compliance'],
    params: userIdParamsSchema,
    body: opsKycRejectBodySchema,
    content: opsKycSubmissionSchema,
    codes: ['FORBIDDEN', 'NOT_FOUND', 'KYC_STATE_CHANGED'],
  }),
};
