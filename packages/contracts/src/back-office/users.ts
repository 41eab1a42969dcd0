import { z } from 'zod';
import { defineEndpoint } from '../endpoint.ts';
import { ANY_OPERATOR } from '../operators.ts';
import { pageQuerySchema, pageSchema } from '../pagination.ts';
import { reasonSchema, userIdParamsSchema } from './access.ts';

// ---------------------------------------------------------------- dashboard

/** A review queue's size and its oldest item against its SLA. */
export const queueStatSchema = z.object({
  queue: z.enum(['kyc', 'withdrawals', 'largeWithdrawals', 'screeningAlerts', 'adjustments']),
  size: z.number().int(),
  oldestAt: z.string().nullable(),
  /** The SLA in hours (KYC: 1 working day = 24); null when the queue has none. */
  slaHours: z.number().int().nullable(),
  isOverdue: z.boolean(),
});
/** Today's totals per asset (Hong Kong day), as decimal strings. */
export const flowTotalSchema = z.object({
  kind: z.enum(['deposits', 'withdrawals', 'swaps']),
  asset: z.string(),
  count: z.number().int(),
  amount: z.string(),
});
/** Liabilities (the sum of user balances) per asset against the platform's recorded holdings. */
export const liabilitySchema = z.object({ asset: z.string(), liabilities: z.string(), holdings: z.string() });
export const dashboardSchema = z.object({
  queues: z.array(queueStatSchema),
  today: z.array(flowTotalSchema),
  /** The ledger's three invariants (docs/architecture.md "Money"): postings sum to zero, balances match postings, no negative user balance. */
  ledgerCheck: z.object({ isOk: z.boolean(), problems: z.array(z.string()), checkedAt: z.string() }),
  liabilities: z.array(liabilitySchema),
});
export type Dashboard = z.infer<typeof dashboardSchema>;

// ---------------------------------------------------------------- users

export const userSearchQuerySchema = pageQuerySchema.extend({ q: z.string().trim().max(200).optional() });
export const userRowSchema = z.object({
  userId: z.string(),
  email: z.string(),
  name: z.string().nullable(),
  phone: z.string().nullable(),
  kycLevel: z.number().int(),
  isFrozen: z.boolean(),
  createdAt: z.string(),
});
export const userNoteSchema = z.object({
  id: z.number().int(),
  at: z.string(),
  operatorEmail: z.string(),
  text: z.string(),
});
/**
 * The names the user page's lists carry as text (`userDetailSchema`): each verification step's
 * status (kyc.service `verificationStepsOf`), and each history line's module, kind and status
 * (admin.users: wallet activity and swaps). Listed so that the back office labels every one of
 * them in both languages (apps/web admin `labels.test.ts`).
 */
export const VERIFICATION_STATUS_NAMES = ['none', 'verified', 'underReview', 'failed', 'expired'] as const;
export const USER_HISTORY_MODULES = ['wallet', 'exchange'] as const;
export const USER_HISTORY_KINDS = [
  'deposit',
  'internalDeposit',
  'withdrawal',
  'internalWithdrawal',
  'swap',
  'flashExchange',
] as const;
export const USER_HISTORY_STATUSES = [
  'pending',
  'credited',
  'frozen',
  'waiting',
  'processing',
  'success',
  'failure',
  'cancel',
  'executed',
] as const;

/** A user's page: profile, verification, balances, sessions, history across modules, messages, notes. */
export const userDetailSchema = userRowSchema.extend({
  frozenReason: z.string().nullable(),
  frozenAt: z.string().nullable(),
  hasTotp: z.boolean(),
  /** Withdrawals are held until then after a security change (2FA reset). */
  withdrawHoldUntil: z.string().nullable(),
  verification: z.array(z.object({ step: z.string(), status: z.string(), decidedAt: z.string().nullable() })),
  balances: z.array(z.object({ asset: z.string(), available: z.string(), frozen: z.string() })),
  sessions: z.array(
    z.object({ id: z.string(), createdAt: z.string(), lastSeenAt: z.string().nullable(), ip: z.string().nullable() }),
  ),
  history: z.array(
    z.object({
      at: z.string(),
      module: z.string(),
      kind: z.string(),
      asset: z.string(),
      amount: z.string(),
      status: z.string(),
    }),
  ),
  messages: z.array(z.object({ at: z.string(), title: z.string() })),
  notes: z.array(userNoteSchema),
});
export type UserDetail = z.infer<typeof userDetailSchema>;
export const userActionBodySchema = z.strictObject({ reason: reasonSchema });
export const userNoteBodySchema = z.strictObject({
  text: z.string().trim().min(1, { error: 'validation.required' }).max(2000),
});

export const backOfficeUserEndpoints = {
  dashboard: defineEndpoint({
    method: 'GET',
    path: '/admin/dashboard',
    tag: 'back-office',
    summary: 'Queues against their SLA, today’s flows, the ledger check, liabilities against holdings',
    auth: 'operator',
    roles: ANY_OPERATOR,
    content: dashboardSchema,
  }),
  searchUsers: defineEndpoint({
    method: 'GET',
    path: '/admin/users',
    tag: 'back-office',
    summary: 'Search users by email, uid, name or phone',
    auth: 'operator',
    roles: ANY_OPERATOR,
    query: userSearchQuerySchema,
    content: pageSchema(userRowSchema),
  }),
  showUser: defineEndpoint({
    method: 'GET',
    path: '/admin/users/:userId',
    tag: 'back-office',
    summary: 'A user’s page',
    auth: 'operator',
    roles: ANY_OPERATOR,
    params: userIdParamsSchema,
    content: userDetailSchema,
    codes: ['NOT_FOUND'],
  }),
  freezeUser: defineEndpoint({
    method: 'POST',
    path: '/admin/users/:userId/freeze',
    tag: 'back-office',
    summary: 'Freeze an account: it can sign in and see, not move money',
    auth: 'operator',
    roles: ['compliance'],
    params: userIdParamsSchema,
    body: userActionBodySchema,
    content: userDetailSchema,
    codes: ['NOT_FOUND', 'CONFLICT'],
  }),
  unfreezeUser: defineEndpoint({
    method: 'POST',
    path: '/admin/users/:userId/unfreeze',
    tag: 'back-office',
    summary: 'Unfreeze an account',
    auth: 'operator',
    roles: ['compliance'],
    params: userIdParamsSchema,
    body: userActionBodySchema,
    content: userDetailSchema,
    codes: ['NOT_FOUND', 'CONFLICT'],
  }),
  resetUserTotp: defineEndpoint({
    method: 'POST',
    path: '/admin/users/:userId/reset-2fa',
    tag: 'back-office',
    summary: 'Remove the user’s authenticator; withdrawals are held 24 h',
    auth: 'operator',
    roles: ['support'],
    params: userIdParamsSchema,
    body: userActionBodySchema,
    content: userDetailSchema,
    codes: ['NOT_FOUND', 'CONFLICT'],
  }),
  addUserNote: defineEndpoint({
    method: 'POST',
    path: '/admin/users/:userId/notes',
    tag: 'back-office',
    summary: 'Add an operator note to a user',
    auth: 'operator',
    roles: ANY_OPERATOR,
    params: userIdParamsSchema,
    body: userNoteBodySchema,
    content: userNoteSchema,
    codes: ['NOT_FOUND'],
  }),
};
