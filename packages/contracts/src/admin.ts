import { z } from 'zod';
import { defineEndpoint } from './endpoint.ts';
import { pageQuerySchema, pageSchema } from './pagination.ts';
import { idParamSchema, walletRecordSchema } from './wallet.ts';

/**
 * The operator API (`/api/ops/*`, issue 13: the admin module): machine and back-office callers with
 * a bearer token of the operators table, one role per call ('admin' may do everything), no CSRF
 * header. Withdrawal states as spec §4: 0 waiting, 1 processing, 2 success, 3 failure.
 */

/** `GET ops/withdrawals?status=`: a page of withdrawals, optionally in one state. */
export const opsWithdrawalQuerySchema = pageQuerySchema.extend({
  status: z.coerce.number().int().min(0).max(4).optional(),
});
/** `POST ops/withdrawals/:id/complete`: the chain transaction that paid it. */
export const opsCompleteBodySchema = z.object({ txHash: z.string().min(1).max(128) });
/** `POST ops/withdrawals/:id/fail`: why it failed (shown to the user). */
export const opsFailBodySchema = z.object({ reason: z.string().min(1).max(500) });

/** A withdrawal as operators see it: the user's record plus its owner, failure reason and last operator. */
export const opsWithdrawalSchema = walletRecordSchema.extend({
  userId: z.string(),
  failureReason: z.string().nullable(),
  operatorEmail: z.string().nullable(),
});
/** `GET ops/withdrawals` content: a page of `opsWithdrawalSchema`. */
export const opsWithdrawalPageSchema = pageSchema(opsWithdrawalSchema);

/**
 * Every operator call. `auth` is 'none' because no user session is involved: the bearer token is
 * checked by the admin routes, answering LOGIN_EXPIRED (missing or unknown token) or FORBIDDEN (role).
 */
export const adminEndpoints = {
  listWithdrawals: defineEndpoint({
    method: 'GET',
    path: '/ops/withdrawals',
    tag: 'operators',
    summary: 'Withdrawals for operators',
    auth: 'none',
    query: opsWithdrawalQuerySchema,
    content: opsWithdrawalPageSchema,
    codes: ['LOGIN_EXPIRED', 'FORBIDDEN'],
  }),
  processWithdrawal: defineEndpoint({
    method: 'POST',
    path: '/ops/withdrawals/:id/process',
    tag: 'operators',
    summary: '0 waiting → 1 processing',
    auth: 'none',
    params: idParamSchema,
    content: opsWithdrawalSchema,
    codes: ['LOGIN_EXPIRED', 'FORBIDDEN', 'NOT_FOUND', 'WITHDRAW_STATE_CHANGED'],
  }),
  completeWithdrawal: defineEndpoint({
    method: 'POST',
    path: '/ops/withdrawals/:id/complete',
    tag: 'operators',
    summary: '1 processing → 2 success',
    auth: 'none',
    params: idParamSchema,
    body: opsCompleteBodySchema,
    content: opsWithdrawalSchema,
    codes: ['LOGIN_EXPIRED', 'FORBIDDEN', 'NOT_FOUND', 'WITHDRAW_STATE_CHANGED'],
  }),
  failWithdrawal: defineEndpoint({
    method: 'POST',
    path: '/ops/withdrawals/:id/fail',
    tag: 'operators',
    summary: '0/1 → 3 failure, funds returned',
    auth: 'none',
    params: idParamSchema,
    body: opsFailBodySchema,
    content: opsWithdrawalSchema,
    codes: ['LOGIN_EXPIRED', 'FORBIDDEN', 'NOT_FOUND', 'WITHDRAW_STATE_CHANGED'],
  }),
};
