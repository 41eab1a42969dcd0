import { z } from 'zod';
import { defineEndpoint } from '../endpoint.ts';
import { assetCodeSchema, signedDecimalAmountSchema } from '../money.ts';
import { pageQuerySchema, pageSchema } from '../pagination.ts';
import { reasonSchema, numericIdParamsSchema } from './access.ts';

// ---------------------------------------------------------------- manual adjustments (four eyes)

/** One side of an adjustment: a user's wallet in an asset, or a platform account by its code. */
export const adjustmentPostingSchema = z.strictObject({
  account: z.discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('user'), userId: z.string().min(1).max(64) }),
    z.strictObject({ kind: z.literal('platform'), code: z.enum(['adjustments', 'suspense', 'fees']) }),
  ]),
  asset: assetCodeSchema,
  /** Signed decimal string: positive credits the account, negative debits it. */
  amount: signedDecimalAmountSchema,
});
export const proposeAdjustmentBodySchema = z.strictObject({
  reason: reasonSchema,
  /** At least two postings summing to zero per asset (`postings` is named when they do not). */
  postings: z.array(adjustmentPostingSchema).min(2).max(10),
});
export const ADJUSTMENT_STATUSES = ['proposed', 'posted', 'rejected'] as const;
export const adjustmentSchema = z.object({
  id: z.number().int(),
  status: z.enum(ADJUSTMENT_STATUSES),
  reason: z.string(),
  postings: z.array(
    z.object({
      account: z.object({
        kind: z.enum(['user', 'platform']),
        userId: z.string().optional(),
        code: z.string().optional(),
      }),
      asset: z.string(),
      amount: z.string(),
    }),
  ),
  proposedBy: z.string(),
  proposedAt: z.string(),
  decidedBy: z.string().nullable(),
  decidedAt: z.string().nullable(),
  decisionNote: z.string().nullable(),
  /** The ledger entry once posted. */
  entryId: z.string().nullable(),
});
export type Adjustment = z.infer<typeof adjustmentSchema>;
export const adjustmentQuerySchema = pageQuerySchema.extend({ status: z.enum(ADJUSTMENT_STATUSES).optional() });
export const rejectAdjustmentBodySchema = z.strictObject({ reason: reasonSchema });

export const backOfficeAdjustmentEndpoints = {
  listAdjustments: defineEndpoint({
    method: 'GET',
    path: '/admin/adjustments',
    tag: 'back-office',
    summary: 'Manual adjustments, newest first',
    auth: 'operator',
    roles: ['finance', 'compliance'],
    query: adjustmentQuerySchema,
    content: pageSchema(adjustmentSchema),
  }),
  proposeAdjustment: defineEndpoint({
    method: 'POST',
    path: '/admin/adjustments',
    tag: 'back-office',
    summary: 'Propose a balanced journal entry with a reason (a different finance operator approves it)',
    auth: 'operator',
    roles: ['finance'],
    body: proposeAdjustmentBodySchema,
    content: adjustmentSchema,
    codes: ['NOT_FOUND'],
  }),
  approveAdjustment: defineEndpoint({
    method: 'POST',
    path: '/admin/adjustments/:id/approve',
    tag: 'back-office',
    summary: 'Approve and post (four eyes: not by its proposer); posted once however often it is approved',
    auth: 'operator',
    roles: ['finance'],
    params: numericIdParamsSchema,
    content: adjustmentSchema,
    codes: ['NOT_FOUND', 'FOUR_EYES_REQUIRED', 'ADJUSTMENT_STATE_CHANGED', 'INSUFFICIENT_BALANCE'],
  }),
  rejectAdjustment: defineEndpoint({
    method: 'POST',
    path: '/admin/adjustments/:id/reject',
    tag: 'back-office',
    summary: 'Reject a proposed adjustment with a reason',
    auth: 'operator',
    roles: ['finance'],
    params: numericIdParamsSchema,
    body: rejectAdjustmentBodySchema,
    content: adjustmentSchema,
    codes: ['NOT_FOUND', 'ADJUSTMENT_STATE_CHANGED'],
  }),
};

// ---------------------------------------------------------------- deposits

/** A deposit's state: waiting for confirmations, credited to the user, or frozen (source on a sanctions list). */
export const OPS_DEPOSIT_STATUSES = ['pending', 'credited', 'frozen'] as const;
export type OpsDepositStatus = (typeof OPS_DEPOSIT_STATUSES)[number];

/** `GET admin/deposits?status=&coin=`: a page, newest first; both filters optional. */
export const opsDepositQuerySchema = pageQuerySchema.extend({
  status: z.enum(OPS_DEPOSIT_STATUSES).optional(),
  coin: assetCodeSchema.optional(),
});

/**
 * A deposit as operators see it: its owner, what arrived where, from where,
 * its confirmations and state. `amount` is a decimal string in the coin's units ("25.5"), never a
 * number; times are ISO 8601 instants.
 */
export const opsDepositSchema = z.object({
  id: z.string(),
  userId: z.string(),
  /** The owner's email; null when the account no longer exists. */
  userEmail: z.string().nullable(),
  coinCode: z.string(),
  network: z.string(),
  /** The user's deposit address the coins reached. */
  address: z.string(),
  amount: z.string(),
  /** The chain transaction; null for a transfer between Meridian users (INTERNAL). */
  txHash: z.string().nullable(),
  /** Where the coins came from, when custody reported it. */
  fromAddress: z.string().nullable(),
  confirmations: z.number().int(),
  type: z.enum(['INTERNAL', 'OUTER']),
  status: z.enum(OPS_DEPOSIT_STATUSES),
  createdAt: z.string(),
  creditedAt: z.string().nullable(),
});
export type OpsDeposit = z.infer<typeof opsDepositSchema>;

export const backOfficeDepositEndpoints = {
  listDeposits: defineEndpoint({
    method: 'GET',
    path: '/admin/deposits',
    tag: 'back-office',
    summary: 'Deposits (pending, credited, frozen), newest first, by status and coin',
    auth: 'operator',
    roles: ['finance', 'compliance', 'support'],
    query: opsDepositQuerySchema,
    content: pageSchema(opsDepositSchema),
  }),
};
