import { z } from 'zod';
import { uuidString } from './limits.ts';
import { defineEndpoint } from './endpoint.ts';
import { pageQuerySchema, pageSchema } from './pagination.ts';
import { sixDigitCodeSchema } from './security.ts';

/**
 * Support requests (account-deletion requests, each answered with a status and a reply;
 * docs/back-office.md "Support requests"). A customer asks customer service to delete the account, with a reason;
 * support reads and replies, compliance (admin always) decides. The support module owns them
 * (`apps/server/src/modules/support`); docs/back-office.md "Support requests".
 */

/** The kinds of support request. Only account deletion is built; PRO applications have their own page. */
export const SUPPORT_REQUEST_KINDS = ['ACCOUNT_DELETION'] as const;
export type SupportRequestKind = (typeof SUPPORT_REQUEST_KINDS)[number];

/**
 * A request's status: PENDING (sent) → IN_PROGRESS (an operator replied) → DONE (the account was
 * closed) or REJECTED. PENDING and IN_PROGRESS are open: a user has at most one open request.
 */
export const SUPPORT_REQUEST_STATUSES = ['PENDING', 'IN_PROGRESS', 'DONE', 'REJECTED'] as const;
export type SupportRequestStatus = (typeof SUPPORT_REQUEST_STATUSES)[number];
/** The statuses in which a request is still open (counts towards the one-open-request rule). */
export const OPEN_SUPPORT_REQUEST_STATUSES = ['PENDING', 'IN_PROGRESS'] as const satisfies SupportRequestStatus[];

/**
 * The allowed moves of a request's status (asserted by the service; anything else answers
 * SUPPORT_REQUEST_STATE_CHANGED, 301). A reply keeps an IN_PROGRESS request IN_PROGRESS.
 */
export const SUPPORT_REQUEST_TRANSITIONS = {
  PENDING: ['IN_PROGRESS', 'DONE', 'REJECTED'],
  IN_PROGRESS: ['IN_PROGRESS', 'DONE', 'REJECTED'],
  DONE: [],
  REJECTED: [],
} as const satisfies Record<SupportRequestStatus, readonly SupportRequestStatus[]>;

/** Whether a request may move from `from` to `to` (see `SUPPORT_REQUEST_TRANSITIONS`). */
export function isSupportTransitionAllowed(from: SupportRequestStatus, to: SupportRequestStatus): boolean {
  return (SUPPORT_REQUEST_TRANSITIONS[from] as readonly SupportRequestStatus[]).includes(to);
}

/** Most characters of a customer's reason and of an operator's reply. */
export const SUPPORT_REASON_LENGTH_MAX = 1000;
export const SUPPORT_REPLY_LENGTH_MAX = 1000;

const reasonSchema = z
  .string({ error: 'validation.required' })
  .trim()
  .min(1, { error: 'validation.required' })
  .max(SUPPORT_REASON_LENGTH_MAX, { error: 'validation.tooLong' });
const replySchema = z
  .string({ error: 'validation.required' })
  .trim()
  .min(1, { error: 'validation.required' })
  .max(SUPPORT_REPLY_LENGTH_MAX, { error: 'validation.tooLong' });

/**
 * `POST support/deletion`: ask customer service to delete the account, with a reason (1–1000
 * characters). A sensitive action (event ACCOUNT_CANCEL): the body carries the user's trade factors.
 */
export const deletionRequestBodySchema = z.strictObject({
  reason: reasonSchema,
  mfaCode: sixDigitCodeSchema.optional(),
  emailCaptcha: sixDigitCodeSchema.optional(),
  securityPassword: sixDigitCodeSchema.optional(),
});
export type DeletionRequestBody = z.input<typeof deletionRequestBodySchema>;

/** A support request as its customer sees it. Times are ISO 8601 instants. */
export const supportRequestSchema = z.object({
  id: z.string(),
  kind: z.enum(SUPPORT_REQUEST_KINDS),
  status: z.enum(SUPPORT_REQUEST_STATUSES),
  reason: z.string(),
  /** Customer service's latest reply; null until someone replies. */
  reply: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type SupportRequest = z.infer<typeof supportRequestSchema>;

/** `GET support/deletion`: the user's latest deletion request (open or not), or null when none. */
export const deletionStateSchema = z.object({ request: supportRequestSchema.nullable() });
export type DeletionState = z.infer<typeof deletionStateSchema>;

/** A support request as the back office sees it: its customer and who replied and decided. */
export const opsSupportRequestSchema = supportRequestSchema.extend({
  userId: z.string(),
  /** The customer's email at the time of listing (a closed account shows its removed address). */
  email: z.string().nullable(),
  repliedBy: z.string().nullable(),
  repliedAt: z.string().nullable(),
  decidedBy: z.string().nullable(),
  decidedAt: z.string().nullable(),
});
export type OpsSupportRequest = z.infer<typeof opsSupportRequestSchema>;

export const opsSupportQuerySchema = pageQuerySchema.extend({
  status: z.enum(SUPPORT_REQUEST_STATUSES).optional(),
});

export const supportRequestIdParamsSchema = z.object({ id: uuidString({ error: 'validation.required' }) });

/** `POST admin/support/requests/:id/reply`: the reply the user reads in the message centre. */
export const replySupportBodySchema = z.strictObject({ reply: replySchema });

/**
 * `POST admin/support/requests/:id/decide`: DONE closes the account through the identity module's
 * closure (refused with ACCOUNT_NOT_EMPTY, 111, while the user holds anything: the request stays
 * open), REJECTED keeps it; either way `reply` is sent to the user's message centre.
 */
export const decideSupportBodySchema = z.strictObject({
  status: z.enum(['DONE', 'REJECTED'], { error: 'validation.required' }),
  reply: replySchema,
});
export type DecideSupportBody = z.input<typeof decideSupportBodySchema>;

/** The customer's calls: the latest deletion request, and a new one. */
export const supportEndpoints = {
  deletionState: defineEndpoint({
    method: 'GET',
    path: '/support/deletion',
    tag: 'support',
    summary: 'The latest account-deletion request, with its status and reply',
    auth: 'user',
    content: deletionStateSchema,
  }),
  requestDeletion: defineEndpoint({
    method: 'POST',
    path: '/support/deletion',
    tag: 'support',
    summary: 'Ask customer service to delete the account (at most one open request)',
    auth: 'user',
    sensitiveAction: 'ACCOUNT_CANCEL',
    body: deletionRequestBodySchema,
    content: supportRequestSchema,
    codes: ['SUPPORT_REQUEST_OPEN', 'CAPTCHA_FAILED', 'ACCOUNT_LOCKED'],
  }),
};

/** The back office's calls: support lists and replies; compliance (admin always) decides. */
export const opsSupportEndpoints = {
  listSupportRequests: defineEndpoint({
    method: 'GET',
    path: '/admin/support/requests',
    tag: 'back-office',
    summary: 'Support requests, open first (oldest first), then decided ones newest first',
    auth: 'operator',
    roles: ['support', 'compliance'],
    query: opsSupportQuerySchema,
    content: pageSchema(opsSupportRequestSchema),
  }),
  replySupportRequest: defineEndpoint({
    method: 'POST',
    path: '/admin/support/requests/:id/reply',
    tag: 'back-office',
    summary: 'Reply to a support request (to the user’s message centre); it becomes In progress',
    auth: 'operator',
    roles: ['support', 'compliance'],
    params: supportRequestIdParamsSchema,
    body: replySupportBodySchema,
    content: opsSupportRequestSchema,
    codes: ['NOT_FOUND', 'SUPPORT_REQUEST_STATE_CHANGED'],
  }),
  decideSupportRequest: defineEndpoint({
    method: 'POST',
    path: '/admin/support/requests/:id/decide',
    tag: 'back-office',
    summary: 'Decide a support request: DONE closes the account, REJECTED keeps it',
    auth: 'operator',
    roles: ['compliance'],
    params: supportRequestIdParamsSchema,
    body: decideSupportBodySchema,
    content: opsSupportRequestSchema,
    codes: ['NOT_FOUND', 'SUPPORT_REQUEST_STATE_CHANGED', 'ACCOUNT_NOT_EMPTY', 'SUPPORT_ACCOUNT_NOT_ACTIVE'],
  }),
};
