import { z } from 'zod';
import { uuidString } from './limits.ts';
import {
  cardCurrencySchema,
  cardKindSchema,
  cardLimitRequestSchema,
  cardLimitsSchema,
  cardNetworkSchema,
  cardStatusSchema,
} from './cards.ts';
import { defineEndpoint } from './endpoint.ts';
import { decimalAmountSchema } from './money.ts';
import { pageQuerySchema, pageSchema } from './pagination.ts';

/**
 * Operator calls of the cards: limit changes are requests to customer service, answered with a
 * status and a reply; a blocked PIN is unblocked by an operator; clearing for an unknown hold goes to
 * suspense (docs/back-office.md "Cards"). Registered from the cards module's routes
 * (`auth: 'operator'`; admin always may). Operators never see a full PAN: only `maskedNumber`.
 */

/**
 * The physical card's production steps an operator may take (docs/cards.md): Under Review →
 * Processing → Shipped → Active, and Shipped → Returned (undeliverable). Anything else is refused
 * with CARD_STATUS_STEP_NOT_ALLOWED (220); virtual cards have no steps.
 */
export const CARD_STATUS_STEPS = {
  UNDER_REVIEW: ['PROCESSING'],
  PROCESSING: ['SHIPPED'],
  SHIPPED: ['ACTIVE', 'RETURNED'],
} as const satisfies Partial<Record<z.infer<typeof cardStatusSchema>, readonly z.infer<typeof cardStatusSchema>[]>>;

/** Statuses an operator may move a physical card to. */
export const cardStepTargetSchema = z.enum(['PROCESSING', 'SHIPPED', 'ACTIVE', 'RETURNED']);
export type CardStepTarget = z.infer<typeof cardStepTargetSchema>;

/** A limit-change request as the back office sees it: the card's owner and masked number, the reply. */
export const opsLimitRequestSchema = cardLimitRequestSchema.extend({
  userId: z.string(),
  maskedNumber: z.string(),
  currency: cardCurrencySchema,
  /** The card's limits now (after an approval: the ones applied). */
  current: cardLimitsSchema,
  /** The operator's answer to the user; null while pending. */
  reply: z.string().nullable(),
  decidedBy: z.string().nullable(),
});
export type OpsLimitRequest = z.infer<typeof opsLimitRequestSchema>;

export const LIMIT_REQUEST_STATES = ['PENDING', 'APPROVED', 'REJECTED'] as const;
export const opsLimitRequestQuerySchema = pageQuerySchema.extend({ state: z.enum(LIMIT_REQUEST_STATES).optional() });

export const opsIdParamsSchema = z.object({
  id: z
    .string()
    .max(18, { abort: true })
    .regex(/^\d{1,18}$/),
});

/**
 * `POST admin/cards/limit-requests/:id/decide`: approve with the limits to apply (card currency
 * decimals; null = no limit; omitted = the ones requested) or reject; `reply` is what the user is
 * told either way. A request is decided once: a second decision is CARD_LIMIT_REQUEST_STATE_CHANGED (219).
 */
export const decideLimitRequestBodySchema = z.object({
  isApproved: z.boolean(),
  limits: z
    .object({
      perTransaction: decimalAmountSchema.nullable(),
      daily: decimalAmountSchema.nullable(),
      monthly: decimalAmountSchema.nullable(),
    })
    .optional(),
  reply: z.string().trim().min(1, { error: 'validation.required' }).max(500, { error: 'validation.tooLong' }),
});
export type DecideLimitRequestBody = z.input<typeof decideLimitRequestBodySchema>;

/** A card as operators see it: masked number only (never a PAN, never a CVV). */
export const opsCardSchema = z.object({
  id: z.number().int(),
  userId: z.string(),
  kind: cardKindSchema,
  network: cardNetworkSchema,
  currency: cardCurrencySchema,
  status: cardStatusSchema,
  maskedNumber: z.string(),
  cardholderName: z.string(),
  isLocked: z.boolean(),
  /** Set while five wrong PINs block the card (ISO instant). */
  pinBlockedUntil: z.string().nullable(),
  limits: cardLimitsSchema,
  createdAt: z.string(),
});
export type OpsCard = z.infer<typeof opsCardSchema>;

export const opsCardQuerySchema = pageQuerySchema.extend({
  status: cardStatusSchema.optional(),
  userId: uuidString().optional(),
  kind: cardKindSchema.optional(),
});

export const setCardStatusBodySchema = z.object({
  status: cardStepTargetSchema,
  note: z.string().trim().max(500, { error: 'validation.tooLong' }).optional(),
});

/** A clearing or refund the processor sent for no authorisation Meridian knows (booked to suspense). */
export const opsSuspenseItemSchema = z.object({
  id: z.number().int(),
  eventType: z.string(),
  processorAuthId: z.string(),
  /** The card it names, when the token is one of Meridian's. */
  cardId: z.number().int().nullable(),
  amount: z.string(),
  currency: z.string(),
  state: z.enum(['OPEN', 'RESOLVED']),
  note: z.string().nullable(),
  resolution: z.enum(['ASSIGN_TO_CARD', 'WRITE_OFF']).nullable(),
  resolvedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type OpsSuspenseItem = z.infer<typeof opsSuspenseItemSchema>;
export const opsSuspenseQuerySchema = pageQuerySchema.extend({ state: z.enum(['OPEN', 'RESOLVED']).optional() });

/**
 * How finance resolves a card suspense item: ASSIGN_TO_CARD books it on the card its token names (a
 * clearing is charged to the card's available balance, a refund credited to it); WRITE_OFF books it
 * to the platform (a clearing is a loss, a refund a gain). Either way with a note for the audit.
 */
export const CARD_SUSPENSE_RESOLUTIONS = ['ASSIGN_TO_CARD', 'WRITE_OFF'] as const;
export type CardSuspenseResolution = (typeof CARD_SUSPENSE_RESOLUTIONS)[number];
export const resolveSuspenseBodySchema = z.object({
  resolution: z.enum(CARD_SUSPENSE_RESOLUTIONS, { error: 'validation.required' }),
  note: z.string().trim().min(1, { error: 'validation.required' }).max(500, { error: 'validation.tooLong' }),
});
export type ResolveSuspenseBody = z.input<typeof resolveSuspenseBodySchema>;

/**
 * The operator calls of the cards. Limit requests are support's (docs/back-office.md gives support card and
 * limit requests; a limit change moves no money); so are the physical card's steps and PIN
 * unblocks. The suspense clearings are money the ledger holds in SUSPENSE: finance's.
 */
export const opsCardEndpoints = {
  listLimitRequests: defineEndpoint({
    method: 'GET',
    path: '/admin/cards/limit-requests',
    tag: 'back-office',
    summary: 'Card limit-change requests, pending first then newest',
    auth: 'operator',
    roles: ['support'],
    query: opsLimitRequestQuerySchema,
    content: pageSchema(opsLimitRequestSchema),
    codes: ['LOGIN_EXPIRED', 'FORBIDDEN'],
  }),
  decideLimitRequest: defineEndpoint({
    method: 'POST',
    path: '/admin/cards/limit-requests/:id/decide',
    tag: 'back-office',
    summary: 'Approve a limit-change request with the limits to apply, or reject it; the reply goes to the user',
    auth: 'operator',
    roles: ['support'],
    params: opsIdParamsSchema,
    body: decideLimitRequestBodySchema,
    content: opsLimitRequestSchema,
    codes: ['LOGIN_EXPIRED', 'FORBIDDEN', 'NOT_FOUND', 'CARD_LIMIT_REQUEST_STATE_CHANGED'],
  }),
  listCards: defineEndpoint({
    method: 'GET',
    path: '/admin/cards',
    tag: 'back-office',
    summary: 'Cards, newest first, by status, kind or user (masked numbers only)',
    auth: 'operator',
    roles: ['support', 'finance'],
    query: opsCardQuerySchema,
    content: pageSchema(opsCardSchema),
    codes: ['LOGIN_EXPIRED', 'FORBIDDEN'],
  }),
  setCardStatus: defineEndpoint({
    method: 'POST',
    path: '/admin/cards/:id/status',
    tag: 'back-office',
    summary: 'Move a physical card one production step (Under Review → Processing → Shipped → Active / Returned)',
    auth: 'operator',
    roles: ['support'],
    params: opsIdParamsSchema,
    body: setCardStatusBodySchema,
    content: opsCardSchema,
    codes: ['LOGIN_EXPIRED', 'FORBIDDEN', 'NOT_FOUND', 'CARD_STATUS_STEP_NOT_ALLOWED'],
  }),
  unblockPin: defineEndpoint({
    method: 'POST',
    path: '/admin/cards/:id/unblock-pin',
    tag: 'back-office',
    summary: 'Lift the block five wrong PINs put on a card (and reset the count)',
    auth: 'operator',
    roles: ['support'],
    params: opsIdParamsSchema,
    content: opsCardSchema,
    codes: ['LOGIN_EXPIRED', 'FORBIDDEN', 'NOT_FOUND', 'CARD_PIN_NOT_BLOCKED'],
  }),
  listSuspense: defineEndpoint({
    method: 'GET',
    path: '/admin/cards/suspense',
    tag: 'back-office',
    summary: 'Card clearings and refunds booked to suspense (no authorisation matched), newest first',
    auth: 'operator',
    roles: ['finance'],
    query: opsSuspenseQuerySchema,
    content: pageSchema(opsSuspenseItemSchema),
    codes: ['LOGIN_EXPIRED', 'FORBIDDEN'],
  }),
  resolveSuspense: defineEndpoint({
    method: 'POST',
    path: '/admin/cards/suspense/:id/resolve',
    tag: 'back-office',
    summary: 'Resolve a suspense item once: charge or credit the card its token names, or write it off, with a note',
    auth: 'operator',
    roles: ['finance'],
    params: opsIdParamsSchema,
    body: resolveSuspenseBodySchema,
    content: opsSuspenseItemSchema,
    codes: [
      'LOGIN_EXPIRED',
      'FORBIDDEN',
      'NOT_FOUND',
      'CARD_SUSPENSE_RESOLVED',
      'CARD_SUSPENSE_NO_CARD',
      'INSUFFICIENT_BALANCE',
    ],
  }),
};
