import { z } from 'zod';
import { defineEndpoint } from './endpoint.ts';
import { amountMinorSchema } from './money.ts';
import { pageQuerySchema, pageSchema } from './pagination.ts';

/**
 * Operator calls of the fund wires (docs/funds.md "USD by wire"): finance records the
 * USD wires Meridian's bank account received and sends the wires users asked for by redeeming to
 * USD. Registered with the other back-office routes (`auth: 'operator'`, role finance; admin always).
 * Amounts on the wire are USD decimal strings with 2 decimals.
 */

/**
 * What became of a received wire: CREDITED to the pending subscription its reference names (once),
 * or SUSPENSE (unknown reference, a reference whose order is no longer pending, or an amount that
 * differs from the order's) — held in the ledger's suspense account, never lost — until finance
 * resolves it: applied to the pending subscription the sender meant (CREDITED, with the resolution)
 * or sent back to the sender (RETURNED).
 */
export const INCOMING_WIRE_STATUSES = ['CREDITED', 'SUSPENSE', 'RETURNED'] as const;
export const incomingWireStatusSchema = z.enum(INCOMING_WIRE_STATUSES);
export type IncomingWireStatus = z.infer<typeof incomingWireStatusSchema>;

/** Outgoing wire (redemption to USD): PENDING until an operator marks it SENT, or FAILED (shares returned). */
export const OUTGOING_WIRE_STATUSES = ['PENDING', 'SENT', 'FAILED'] as const;
export const outgoingWireStatusSchema = z.enum(OUTGOING_WIRE_STATUSES);
export type OutgoingWireStatus = z.infer<typeof outgoingWireStatusSchema>;

/**
 * `POST admin/wires` body: a wire received on Meridian's USD account. `bankTransactionId` is the
 * bank's own id of the credit: recording the same one twice answers the first record (credited
 * once). `amount` parsed to `amountMinor` (USD cents).
 */
export const recordWireBodySchema = z.object({
  reference: z.string().trim().min(1, { error: 'validation.required' }).max(64),
  amount: amountMinorSchema('USD'),
  sender: z.string().trim().min(1, { error: 'validation.required' }).max(200),
  bankTransactionId: z.string().trim().min(1, { error: 'validation.required' }).max(100),
});
export type RecordWireBody = z.input<typeof recordWireBodySchema>;
export type ParsedRecordWireBody = z.output<typeof recordWireBodySchema>;

/** A received wire as operators see it. */
export const incomingWireSchema = z.object({
  id: z.string(),
  reference: z.string(),
  bankTransactionId: z.string(),
  amount: z.string(),
  sender: z.string(),
  status: incomingWireStatusSchema,
  /** Why it went to suspense (`unknown_reference`, `order_not_pending`, `amount_mismatch`); null when credited. */
  suspenseReason: z.string().nullable(),
  /** The fund order it credited; null in suspense. */
  orderId: z.string().nullable(),
  recordedBy: z.string(),
  createdAt: z.string(),
  /** Who resolved a suspense wire, when, and why (null unless it left suspense through an operator). */
  resolvedBy: z.string().nullable(),
  resolvedAt: z.string().nullable(),
  resolutionNote: z.string().nullable(),
  /** True when this call found the wire already recorded (nothing new was credited). */
  isDuplicate: z.boolean(),
});
export type IncomingWire = z.infer<typeof incomingWireSchema>;

export const incomingWireQuerySchema = pageQuerySchema.extend({ status: incomingWireStatusSchema.optional() });

export const incomingWireParamsSchema = z.object({
  id: z
    .string()
    .max(18, { abort: true })
    .regex(/^\d{1,18}$/),
});
/**
 * `POST admin/wires/:id/apply`: a suspense wire pays the PENDING USD subscription `reference` names
 * (the sender misspelt or left out the reference); the amounts must be equal. `note` says how
 * finance matched them.
 */
export const applySuspenseWireBodySchema = z.object({
  reference: z.string().trim().min(1, { error: 'validation.required' }).max(64),
  note: z.string().trim().min(1, { error: 'validation.required' }).max(500),
});
/** `POST admin/wires/:id/return`: a suspense wire goes back to its sender; `note` is why. */
export const returnSuspenseWireBodySchema = z.object({
  note: z.string().trim().min(1, { error: 'validation.required' }).max(500),
});
export type ApplySuspenseWireBody = z.input<typeof applySuspenseWireBodySchema>;

/** A wire Meridian owes a user (redemption to USD). */
export const outgoingWireSchema = z.object({
  id: z.string(),
  orderId: z.string(),
  userId: z.string(),
  reference: z.string(),
  amount: z.string(),
  bankAccountId: z.string(),
  /** The bank account as the payments module described it when the redemption was made. */
  bankAccount: z.record(z.string(), z.unknown()),
  status: outgoingWireStatusSchema,
  note: z.string().nullable(),
  decidedBy: z.string().nullable(),
  decidedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type OutgoingWire = z.infer<typeof outgoingWireSchema>;

export const outgoingWireQuerySchema = pageQuerySchema.extend({ status: outgoingWireStatusSchema.optional() });
export const outgoingWireParamsSchema = z.object({
  id: z
    .string()
    .max(18, { abort: true })
    .regex(/^\d{1,18}$/),
});
export const outgoingWireSentBodySchema = z.object({
  note: z.string().trim().min(1).max(500).optional(),
});
export const outgoingWireFailedBodySchema = z.object({
  note: z.string().trim().min(1, { error: 'validation.required' }).max(500),
});

/** The operator calls of the fund wires (role finance; admin always may). */
export const fundWireEndpoints = {
  recordWire: defineEndpoint({
    method: 'POST',
    path: '/admin/wires',
    tag: 'back-office',
    summary: 'Record a USD wire received: credits the pending subscription of its reference once, else suspense',
    auth: 'operator',
    roles: ['finance'],
    body: recordWireBodySchema,
    content: incomingWireSchema,
    codes: ['LOGIN_EXPIRED', 'FORBIDDEN', 'CONFLICT'],
  }),
  listWires: defineEndpoint({
    method: 'GET',
    path: '/admin/wires',
    tag: 'back-office',
    summary: 'USD wires received, newest first',
    auth: 'operator',
    roles: ['finance'],
    query: incomingWireQuerySchema,
    content: pageSchema(incomingWireSchema),
    codes: ['LOGIN_EXPIRED', 'FORBIDDEN'],
  }),
  applySuspenseWire: defineEndpoint({
    method: 'POST',
    path: '/admin/wires/:id/apply',
    tag: 'back-office',
    summary: 'Apply a wire in suspense to the pending USD subscription of the reference given (same amount)',
    auth: 'operator',
    roles: ['finance'],
    params: incomingWireParamsSchema,
    body: applySuspenseWireBodySchema,
    content: incomingWireSchema,
    codes: ['LOGIN_EXPIRED', 'FORBIDDEN', 'NOT_FOUND', 'WIRE_STATE_CHANGED', 'WIRE_ORDER_MISMATCH'],
  }),
  returnSuspenseWire: defineEndpoint({
    method: 'POST',
    path: '/admin/wires/:id/return',
    tag: 'back-office',
    summary: 'Send a wire in suspense back to its sender (suspense → bank)',
    auth: 'operator',
    roles: ['finance'],
    params: incomingWireParamsSchema,
    body: returnSuspenseWireBodySchema,
    content: incomingWireSchema,
    codes: ['LOGIN_EXPIRED', 'FORBIDDEN', 'NOT_FOUND', 'WIRE_STATE_CHANGED'],
  }),
  listOutgoingWires: defineEndpoint({
    method: 'GET',
    path: '/admin/wires/outgoing',
    tag: 'back-office',
    summary: 'USD wires owed to users (redemptions to USD), oldest first',
    auth: 'operator',
    roles: ['finance'],
    query: outgoingWireQuerySchema,
    content: pageSchema(outgoingWireSchema),
    codes: ['LOGIN_EXPIRED', 'FORBIDDEN'],
  }),
  markWireSent: defineEndpoint({
    method: 'POST',
    path: '/admin/wires/outgoing/:id/sent',
    tag: 'back-office',
    summary: 'Mark an outgoing wire sent (the redemption completes)',
    auth: 'operator',
    roles: ['finance'],
    params: outgoingWireParamsSchema,
    body: outgoingWireSentBodySchema,
    content: outgoingWireSchema,
    codes: ['LOGIN_EXPIRED', 'FORBIDDEN', 'NOT_FOUND', 'WIRE_STATE_CHANGED'],
  }),
  markWireFailed: defineEndpoint({
    method: 'POST',
    path: '/admin/wires/outgoing/:id/failed',
    tag: 'back-office',
    summary: 'Mark an outgoing wire failed: the shares return to the user’s current fund',
    auth: 'operator',
    roles: ['finance'],
    params: outgoingWireParamsSchema,
    body: outgoingWireFailedBodySchema,
    content: outgoingWireSchema,
    codes: ['LOGIN_EXPIRED', 'FORBIDDEN', 'NOT_FOUND', 'WIRE_STATE_CHANGED'],
  }),
};
