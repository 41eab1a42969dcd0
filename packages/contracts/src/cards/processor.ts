import { z } from 'zod';
import { INSTANT_LENGTH_MAX } from '../limits.ts';
import { defineEndpoint } from '../endpoint.ts';
import { decimalAmountSchema } from '../money.ts';
import { cardDeclineReasonSchema, cardNetworkSchema } from './constants.ts';

// ---------------------------------------------------------------- issuer processor → Meridian

/** Header of the processor's webhook signature: `sha256=<hex HMAC-SHA256 of the raw body>`. */
export const HEADER_CARD_SIGNATURE = 'X-Card-Signature';
/** How far a webhook's `sentAt` may be from Meridian's clock. */
export const CARD_WEBHOOK_TOLERANCE_MS = 5 * 60 * 1000;

/** Money of a processor event: decimal strings; parsed by the service against `currency`. */
const processorMoney = {
  amount: decimalAmountSchema,
  currency: z
    .string()
    .max(3, { abort: true })
    .regex(/^[A-Z]{3}$/),
};

/**
 * The processor's events (Marqeta/Lithic style). `authorization`: Meridian must answer approve or
 * decline (just-in-time funding); `pin`/`expiry` carry the outcome of the processor's own checks
 * (the PIN never leaves the processor). `clearing` may carry a different final amount;
 * `reversal` releases the hold; `refund` credits the card (it may refer to no authorisation).
 */
export const cardProcessorEventSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('authorization'),
    authorizationId: z.string().min(1).max(64),
    cardToken: z.string().min(1).max(64),
    ...processorMoney,
    merchantName: z.string().max(100),
    mcc: z
      .string()
      .max(4, { abort: true })
      .regex(/^\d{4}$/),
    isOnline: z.boolean(),
    isThreeDs: z.boolean(),
    pinResult: z.enum(['NOT_PRESENT', 'CORRECT', 'WRONG']),
    isExpiryCorrect: z.boolean(),
  }),
  z.object({
    type: z.literal('clearing'),
    authorizationId: z.string().min(1).max(64),
    cardToken: z.string().min(1).max(64),
    ...processorMoney,
  }),
  z.object({
    type: z.literal('reversal'),
    authorizationId: z.string().min(1).max(64),
    cardToken: z.string().min(1).max(64),
  }),
  z.object({
    type: z.literal('refund'),
    refundId: z.string().min(1).max(64),
    authorizationId: z.string().min(1).max(64).optional(),
    cardToken: z.string().min(1).max(64),
    ...processorMoney,
    merchantName: z.string().max(100),
  }),
]);
export type CardProcessorEvent = z.infer<typeof cardProcessorEventSchema>;
export const cardWebhookBodySchema = z.object({
  deliveryId: z.string().min(1).max(128),
  sentAt: z.iso.datetime({ offset: true }).max(INSTANT_LENGTH_MAX),
  event: cardProcessorEventSchema,
});
export type CardWebhookBody = z.infer<typeof cardWebhookBodySchema>;

/**
 * Meridian's answer: APPROVED (held), DECLINED with the reason, PENDING_CONFIRMATION (3-D Secure
 * or "ask me above X": the processor polls or is told within 5 minutes), or ACCEPTED for
 * clearing/reversal/refund (an unknown authorisation goes to suspense, still ACCEPTED).
 */
export const cardWebhookAnswerSchema = z.object({
  decision: z.enum(['APPROVED', 'DECLINED', 'PENDING_CONFIRMATION', 'ACCEPTED']),
  declineReason: cardDeclineReasonSchema.nullable(),
  transactionId: z.number().int().nullable(),
});
export type CardWebhookAnswer = z.infer<typeof cardWebhookAnswerSchema>;

/** The processor's webhook (signed; no session, no CSRF header). */
export const cardProcessorEndpoints = {
  webhook: defineEndpoint({
    method: 'POST',
    path: '/card/processor/webhook',
    tag: 'cards',
    summary: 'Issuer-processor events (HMAC-signed): authorisation decisions, clearing, reversal, refund',
    auth: 'none',
    body: cardWebhookBodySchema,
    content: cardWebhookAnswerSchema,
    codes: ['WEBHOOK_SIGNATURE_INVALID'],
  }),
};

// ---------------------------------------------------------------- the sandbox network (merchant CLI)

const sandboxMoney = {
  amount: decimalAmountSchema,
  currency: z
    .string()
    .max(3, { abort: true })
    .regex(/^[A-Z]{3}$/),
};

/** The sandbox's answer to a merchant: the authorisation id and Meridian's decision. */
export const sandboxAnswerSchema = cardWebhookAnswerSchema.extend({ authorizationId: z.string().nullable() });

/** The sandbox's record of an authorisation (the CLI polls it while a confirmation waits). */
export const sandboxAuthorizationSchema = z.object({
  authorizationId: z.string(),
  status: z.string(),
  declineReason: cardDeclineReasonSchema.nullable(),
  amount: z.string(),
  currency: z.string(),
});

/**
 * The built-in sandbox processor's network side, for `npm run card` playing a merchant (never in
 * production; every call signed like a webhook: `X-Card-Signature` over the raw body).
 * `card` is Meridian's card id.
 */
export const cardSandboxEndpoints = {
  authorize: defineEndpoint({
    method: 'POST',
    path: '/card/sandbox/authorize',
    tag: 'cards',
    summary: 'Sandbox: a merchant authorisation on a card',
    auth: 'none',
    isHidden: true,
    body: z.object({
      card: z.number().int().positive(),
      ...sandboxMoney,
      merchantName: z.string().max(100),
      mcc: z
        .string()
        .max(4, { abort: true })
        .regex(/^\d{4}$/),
      isOnline: z.boolean(),
      isThreeDs: z.boolean(),
      pin: z
        .string()
        .regex(/^\d{4}$/)
        .optional(),
      expiry: z
        .string()
        .regex(/^\d{2}\/\d{2}$/)
        .optional(),
    }),
    content: sandboxAnswerSchema,
    codes: ['WEBHOOK_SIGNATURE_INVALID', 'NOT_FOUND'],
  }),
  authorization: defineEndpoint({
    method: 'POST',
    path: '/card/sandbox/authorization',
    tag: 'cards',
    summary: 'Sandbox: the state of an authorisation',
    auth: 'none',
    isHidden: true,
    body: z.object({ authorizationId: z.string().min(1).max(64) }),
    content: sandboxAuthorizationSchema,
    codes: ['WEBHOOK_SIGNATURE_INVALID', 'NOT_FOUND'],
  }),
  clear: defineEndpoint({
    method: 'POST',
    path: '/card/sandbox/clear',
    tag: 'cards',
    summary: 'Sandbox: clear an authorisation (optionally at another final amount)',
    auth: 'none',
    isHidden: true,
    body: z.object({
      authorizationId: z.string().min(1).max(64),
      amount: decimalAmountSchema.optional(),
      currency: z
        .string()
        .regex(/^[A-Z]{3}$/)
        .optional(),
    }),
    content: sandboxAnswerSchema,
    codes: ['WEBHOOK_SIGNATURE_INVALID'],
  }),
  reverse: defineEndpoint({
    method: 'POST',
    path: '/card/sandbox/reverse',
    tag: 'cards',
    summary: 'Sandbox: reverse an authorisation',
    auth: 'none',
    isHidden: true,
    body: z.object({ authorizationId: z.string().min(1).max(64) }),
    content: sandboxAnswerSchema,
    codes: ['WEBHOOK_SIGNATURE_INVALID', 'NOT_FOUND'],
  }),
  refund: defineEndpoint({
    method: 'POST',
    path: '/card/sandbox/refund',
    tag: 'cards',
    summary: 'Sandbox: a merchant refund on the card of an authorisation',
    auth: 'none',
    isHidden: true,
    body: z.object({
      authorizationId: z.string().min(1).max(64),
      amount: decimalAmountSchema,
      currency: z
        .string()
        .regex(/^[A-Z]{3}$/)
        .optional(),
    }),
    content: sandboxAnswerSchema,
    codes: ['WEBHOOK_SIGNATURE_INVALID', 'NOT_FOUND'],
  }),
  stock: defineEndpoint({
    method: 'POST',
    path: '/card/sandbox/stock',
    tag: 'cards',
    summary: 'Sandbox: a pre-activated physical card in stock (number and activation code, shown once)',
    auth: 'none',
    isHidden: true,
    body: z.object({ network: cardNetworkSchema }),
    content: z.object({ cardNumber: z.string(), activationCode: z.string() }),
    codes: ['WEBHOOK_SIGNATURE_INVALID'],
  }),
};
