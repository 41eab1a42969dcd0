import { z } from 'zod';
import { defineEndpoint } from './endpoint.ts';
import { pageQuerySchema, pageSchema } from './pagination.ts';
import { idParamSchema, walletRecordSchema } from './wallet.ts';

/**
 * The withdrawal calls of the back office (`/api/admin/withdrawals`): `auth: 'operator'`
 * with the roles of each call (see `operators.ts`). Withdrawal states: 0 waiting,
 * 1 processing, 2 success, 3 failure. A withdrawal worth more than the configured USD amount needs a
 * second operator's approval (`approveWithdrawal`) before it may be processed.
 */

/** `GET admin/withdrawals?status=`: a page of withdrawals, optionally in one state. */
export const opsWithdrawalQuerySchema = pageQuerySchema.extend({
  status: z.coerce.number().int().min(0).max(4).optional(),
});
/** `POST admin/withdrawals/:id/complete`: the chain transaction that paid it. */
export const opsCompleteBodySchema = z.object({ txHash: z.string().min(1).max(128) });
/** `POST admin/withdrawals/:id/fail`: why it failed (shown to the user). */
export const opsFailBodySchema = z.object({ reason: z.string().min(1).max(500) });

/** A withdrawal as operators see it: the user's record plus its owner, failure reason and last operator. */
export const opsWithdrawalSchema = walletRecordSchema.extend({
  userId: z.string(),
  failureReason: z.string().nullable(),
  operatorEmail: z.string().nullable(),
  /** Its USD value at request time (cents as a decimal string, e.g. "25000.00"). */
  usdValue: z.string().nullable(),
  /** True when it is over the large-withdrawal amount and needs a second operator's approval. */
  needsSecondApproval: z.boolean(),
  /** The operator who gave that approval, once given. */
  approvedBy: z.string().nullable(),
});
/** `GET admin/withdrawals` content: a page of `opsWithdrawalSchema`. */
export const opsWithdrawalPageSchema = pageSchema(opsWithdrawalSchema);

/** Every withdrawal call of the back office: LOGIN_EXPIRED (no operator session or token), FORBIDDEN (role). */
export const adminEndpoints = {
  listWithdrawals: defineEndpoint({
    method: 'GET',
    path: '/admin/withdrawals',
    tag: 'back-office',
    summary: 'Withdrawals for operators',
    auth: 'operator',
    roles: ['finance', 'support'],
    query: opsWithdrawalQuerySchema,
    content: opsWithdrawalPageSchema,
    codes: ['LOGIN_EXPIRED', 'FORBIDDEN'],
  }),
  approveWithdrawal: defineEndpoint({
    method: 'POST',
    path: '/admin/withdrawals/:id/approve',
    tag: 'back-office',
    summary: 'Second approval of a large withdrawal (a different operator then processes it)',
    auth: 'operator',
    roles: ['finance'],
    params: idParamSchema,
    content: opsWithdrawalSchema,
    codes: ['LOGIN_EXPIRED', 'FORBIDDEN', 'NOT_FOUND', 'WITHDRAW_STATE_CHANGED', 'FOUR_EYES_REQUIRED'],
  }),
  processWithdrawal: defineEndpoint({
    method: 'POST',
    path: '/admin/withdrawals/:id/process',
    tag: 'back-office',
    summary: '0 waiting → 1 processing',
    auth: 'operator',
    roles: ['finance'],
    params: idParamSchema,
    content: opsWithdrawalSchema,
    codes: [
      'LOGIN_EXPIRED',
      'FORBIDDEN',
      'NOT_FOUND',
      'WITHDRAW_STATE_CHANGED',
      'SECOND_APPROVAL_REQUIRED',
      'FOUR_EYES_REQUIRED',
    ],
  }),
  completeWithdrawal: defineEndpoint({
    method: 'POST',
    path: '/admin/withdrawals/:id/complete',
    tag: 'back-office',
    summary: '1 processing → 2 success',
    auth: 'operator',
    roles: ['finance'],
    params: idParamSchema,
    body: opsCompleteBodySchema,
    content: opsWithdrawalSchema,
    codes: ['LOGIN_EXPIRED', 'FORBIDDEN', 'NOT_FOUND', 'WITHDRAW_STATE_CHANGED'],
  }),
  failWithdrawal: defineEndpoint({
    method: 'POST',
    path: '/admin/withdrawals/:id/fail',
    tag: 'back-office',
    summary: '0/1 → 3 failure, funds returned',
    auth: 'operator',
    roles: ['finance'],
    params: idParamSchema,
    body: opsFailBodySchema,
    content: opsWithdrawalSchema,
    codes: ['LOGIN_EXPIRED', 'FORBIDDEN', 'NOT_FOUND', 'WITHDRAW_STATE_CHANGED'],
  }),
};
