import { z } from 'zod';
import { defineEndpoint } from './endpoint.ts';

/**
 * Back-office calls of the EVM deposit watcher (docs/chain.md "Back office"): the watcher's state
 * (head block, processed cursor, lag), deposits waiting for confirmations, deposits held for review
 * with release (credit through the wallet's one deposit path; a large one needs a second finance
 * operator's approval first) or rejection, and reorganisation alarms with acknowledge and resolve.
 * Registered by the chain module's routes (`auth: 'operator'`, role finance; admin always may).
 */

/** Why a chain deposit is held for review. */
export const CHAIN_REVIEW_REASONS = ['below_minimum', 'dust', 'unknown_token'] as const;

/** A chain deposit as the back office sees it (amounts as decimal strings of the coin; raw in on-chain units). */
export const chainOpsDepositSchema = z.object({
  id: z.number().int(),
  chainId: z.number().int(),
  txHash: z.string(),
  logIndex: z.number().int(),
  blockNumber: z.number().int(),
  /** The ERC-20 contract, or null for ETH. */
  tokenAddress: z.string().nullable(),
  /** Null for an unknown token. */
  coinCode: z.string().nullable(),
  network: z.string(),
  toAddress: z.string(),
  fromAddress: z.string(),
  userId: z.string(),
  /** On-chain units (wei, token base units). */
  amountRaw: z.string(),
  /** Decimal string in the coin's precision; null for an unknown token. */
  amount: z.string().nullable(),
  /** USD value at the time of the answer (2 decimals); null when unknown (no price, unknown token). */
  usdValue: z.string().nullable(),
  confirmations: z.number().int(),
  confirmationsRequired: z.number().int(),
  status: z.enum(['PENDING', 'CREDITED', 'REVIEW', 'ORPHANED', 'REORGED_AFTER_CREDIT', 'REJECTED']),
  reason: z.enum(CHAIN_REVIEW_REASONS).nullable(),
  /** True when its USD value is over LARGE_WITHDRAWAL_USD: a second finance operator approves before another releases. */
  needsSecondApproval: z.boolean(),
  /** The operator (email) who gave the first approval of a large item; null otherwise. */
  approvedBy: z.string().nullable(),
  /** The operator (email) who released or rejected it, and the note. */
  reviewedBy: z.string().nullable(),
  reviewNote: z.string().nullable(),
  createdAt: z.string(),
});
export type ChainOpsDeposit = z.infer<typeof chainOpsDepositSchema>;

export const CHAIN_ALARM_STATUSES = ['open', 'acknowledged', 'resolved'] as const;
/**
 * How finance resolves a reorganisation alarm: RELEASE_HOLD when the transfer made it into the new
 * branch (the held amount goes back to the user's available balance); RECOVER when it did not (the
 * held amount goes back to the hot wallet; any shortfall beyond it is recovered outside this tool).
 */
export const CHAIN_ALARM_RESOLUTIONS = ['RELEASE_HOLD', 'RECOVER'] as const;

/** A credited deposit orphaned by a reorganisation, its held amount, and what finance did. */
export const chainOpsAlarmSchema = z.object({
  id: z.number().int(),
  chainDepositId: z.number().int(),
  depositId: z.number().int(),
  userId: z.string(),
  coinCode: z.string(),
  amount: z.string(),
  /** What was moved from the user's available balance to frozen when the alarm was raised. */
  held: z.string(),
  orphanedBlockNumber: z.number().int(),
  orphanedBlockHash: z.string(),
  status: z.enum(CHAIN_ALARM_STATUSES),
  acknowledgedBy: z.string().nullable(),
  resolvedBy: z.string().nullable(),
  resolution: z.enum(CHAIN_ALARM_RESOLUTIONS).nullable(),
  note: z.string().nullable(),
  createdAt: z.string(),
});
export type ChainOpsAlarm = z.infer<typeof chainOpsAlarmSchema>;

/** `GET admin/chain/state`: the watcher and its queues. */
export const chainOpsStateSchema = z.object({
  /** False when EVM_RPC_URL is unset (EVM deposits come by the custody webhook). */
  isWatcherEnabled: z.boolean(),
  chainId: z.number().int().nullable(),
  /** The node's latest block; null when the node does not answer. */
  headBlock: z.number().int().nullable(),
  /** The last block the watcher processed; null before the first. */
  cursorBlock: z.number().int().nullable(),
  /** When the cursor last moved (ISO instant). */
  cursorUpdatedAt: z.string().nullable(),
  /** headBlock − cursorBlock. */
  lagBlocks: z.number().int().nullable(),
  /** Seconds between the head block's and the cursor block's timestamps (the node's clock). */
  lagSeconds: z.number().int().nullable(),
  /** Set when the node could not be asked (the message, for operators). */
  nodeError: z.string().nullable(),
  pending: z.array(chainOpsDepositSchema),
  review: z.array(chainOpsDepositSchema),
  alarms: z.array(chainOpsAlarmSchema),
});
export type ChainOpsState = z.infer<typeof chainOpsStateSchema>;

export const chainOpsIdParamsSchema = z.object({
  id: z
    .string()
    .max(18, { abort: true })
    .regex(/^\d{1,18}$/),
});

const noteSchema = z.string().trim().min(1, { error: 'validation.required' }).max(500, { error: 'validation.tooLong' });

/** Release or reject a review item: the note is kept in the audit log and on the item. */
export const chainReviewDecisionBodySchema = z.object({ note: noteSchema });
export type ChainReviewDecisionBody = z.input<typeof chainReviewDecisionBodySchema>;

/** Acknowledge an alarm (finance has seen it); the note is optional. */
export const chainAlarmAcknowledgeBodySchema = z.object({
  note: z.string().trim().max(500, { error: 'validation.tooLong' }).optional(),
});

/** Resolve an alarm once, with a note. */
export const chainAlarmResolveBodySchema = z.object({
  resolution: z.enum(CHAIN_ALARM_RESOLUTIONS, { error: 'validation.required' }),
  note: noteSchema,
});
export type ChainAlarmResolveBody = z.input<typeof chainAlarmResolveBodySchema>;

const FINANCE = ['finance'] as const;

/** The back office's chain calls: finance's (they move or hold money); admin always may. */
export const chainOpsEndpoints = {
  getState: defineEndpoint({
    method: 'GET',
    path: '/admin/chain/state',
    tag: 'back-office',
    summary: 'The EVM watcher: head block, cursor, lag, pending deposits, review items and reorganisation alarms',
    auth: 'operator',
    roles: FINANCE,
    content: chainOpsStateSchema,
    codes: ['LOGIN_EXPIRED', 'FORBIDDEN'],
  }),
  approveReview: defineEndpoint({
    method: 'POST',
    path: '/admin/chain/review/:id/approve',
    tag: 'back-office',
    summary: 'First approval of a large review item; a different finance operator then releases it',
    auth: 'operator',
    roles: FINANCE,
    params: chainOpsIdParamsSchema,
    content: chainOpsDepositSchema,
    codes: ['LOGIN_EXPIRED', 'FORBIDDEN', 'NOT_FOUND', 'CHAIN_ITEM_STATE_CHANGED', 'CHAIN_DEPOSIT_NOT_CREDITABLE'],
  }),
  releaseReview: defineEndpoint({
    method: 'POST',
    path: '/admin/chain/review/:id/release',
    tag: 'back-office',
    summary: 'Credit a deposit held for review through the wallet (once), with a note',
    auth: 'operator',
    roles: FINANCE,
    params: chainOpsIdParamsSchema,
    body: chainReviewDecisionBodySchema,
    content: chainOpsDepositSchema,
    codes: [
      'LOGIN_EXPIRED',
      'FORBIDDEN',
      'NOT_FOUND',
      'CHAIN_ITEM_STATE_CHANGED',
      'CHAIN_DEPOSIT_NOT_CREDITABLE',
      'CHAIN_SECOND_APPROVAL_REQUIRED',
      'FOUR_EYES_REQUIRED',
    ],
  }),
  rejectReview: defineEndpoint({
    method: 'POST',
    path: '/admin/chain/review/:id/reject',
    tag: 'back-office',
    summary: 'Close a review item without crediting it (returned or kept outside the ledger), with a note',
    auth: 'operator',
    roles: FINANCE,
    params: chainOpsIdParamsSchema,
    body: chainReviewDecisionBodySchema,
    content: chainOpsDepositSchema,
    codes: ['LOGIN_EXPIRED', 'FORBIDDEN', 'NOT_FOUND', 'CHAIN_ITEM_STATE_CHANGED'],
  }),
  acknowledgeAlarm: defineEndpoint({
    method: 'POST',
    path: '/admin/chain/alarms/:id/acknowledge',
    tag: 'back-office',
    summary: 'Mark an open reorganisation alarm as seen by finance',
    auth: 'operator',
    roles: FINANCE,
    params: chainOpsIdParamsSchema,
    body: chainAlarmAcknowledgeBodySchema,
    content: chainOpsAlarmSchema,
    codes: ['LOGIN_EXPIRED', 'FORBIDDEN', 'NOT_FOUND', 'CHAIN_ITEM_STATE_CHANGED'],
  }),
  resolveAlarm: defineEndpoint({
    method: 'POST',
    path: '/admin/chain/alarms/:id/resolve',
    tag: 'back-office',
    summary: 'Resolve a reorganisation alarm once: release the hold to the user, or recover it to the hot wallet',
    auth: 'operator',
    roles: FINANCE,
    params: chainOpsIdParamsSchema,
    body: chainAlarmResolveBodySchema,
    content: chainOpsAlarmSchema,
    codes: ['LOGIN_EXPIRED', 'FORBIDDEN', 'NOT_FOUND', 'CHAIN_ITEM_STATE_CHANGED'],
  }),
};
