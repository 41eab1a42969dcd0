import { z } from 'zod';
import { defineEndpoint } from '../endpoint.ts';
import { pageQuerySchema, pageSchema } from '../pagination.ts';
import {
  cardTransactionKindSchema,
  cardTransactionStatusSchema,
  cardCurrencySchema,
  cardDeclineReasonSchema,
} from './constants.ts';
import {
  cardConfigSchema,
  cardListSchema,
  applyCardBodySchema,
  cardSchema,
  bindCardBodySchema,
  cardIdParamSchema,
  cardDetailSchema,
  cardTopUpQuoteBodySchema,
  cardTopUpQuoteSchema,
  cardTopUpBodySchema,
  cardLockBodySchema,
  cardRevealBodySchema,
  cardRevealSchema,
  cardPinBodySchema,
  cardSpendRulesSchema,
  setCardSpendRulesBodySchema,
  cardLimitRequestBodySchema,
  cardLimitRequestSchema,
} from './cards.ts';

// ---------------------------------------------------------------- transactions

/**
 * One line of a card's transactions. `amount` is in the card's currency (for a purchase: the held
 * amount while AUTHORIZED, the final amount once CLEARED); `originalAmount`/`originalCurrency` are
 * what the merchant charged. `refundAfter`/`refundFallbackAt` state the merchant refund timing on
 * purchases (a merchant refund after 72 hours, or 31 days if the merchant has not started refund or
 * settlement); null on other lines.
 */
export const cardTransactionSchema = z.object({
  id: z.number().int(),
  kind: cardTransactionKindSchema,
  status: cardTransactionStatusSchema,
  amount: z.string(),
  currency: cardCurrencySchema,
  originalAmount: z.string(),
  originalCurrency: z.string(),
  merchantName: z.string().nullable(),
  mcc: z.string().nullable(),
  declineReason: cardDeclineReasonSchema.nullable(),
  /** For a top-up: the coin and amount that left the wallet. */
  sourceCoin: z.string().nullable(),
  sourceAmount: z.string().nullable(),
  /** A PENDING_CONFIRMATION line: when the confirmation lapses. */
  confirmBy: z.string().nullable(),
  /** A purchase (held or cleared): when a merchant refund is due at the earliest (createdAt + 72 h). */
  refundAfter: z.string().nullable(),
  /** A purchase: the latest a refund takes when the merchant has not started refund or settlement (createdAt + 31 days). */
  refundFallbackAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type CardTransaction = z.infer<typeof cardTransactionSchema>;
export const cardTransactionPageSchema = pageSchema(cardTransactionSchema);
export const cardTransactionQuerySchema = pageQuerySchema;

/** A payment waiting for the user's confirmation (3-D Secure or "ask me above X"). */
export const cardConfirmationSchema = z.object({
  id: z.number().int(),
  cardId: z.number().int(),
  last4: z.string(),
  merchantName: z.string().nullable(),
  amount: z.string(),
  currency: z.string(),
  reason: z.enum(['THREE_DS', 'ASK_ABOVE']),
  expiresAt: z.string(),
});
export type CardConfirmation = z.infer<typeof cardConfirmationSchema>;
export const cardConfirmationIdParamSchema = z.object({ id: z.coerce.number().int().positive() });
/** `POST card/confirmation/:id` body: approve or reject the payment. */
export const cardConfirmBodySchema = z.object({ isApproved: z.boolean() });

/** The card holder's calls (basic identity verification). */
export const cardEndpoints = {
  getConfig: defineEndpoint({
    method: 'GET',
    path: '/card/config',
    tag: 'cards',
    summary: 'Networks, currencies, top-up coins, the physical-card fee and the virtual-card promotion',
    auth: 'user',
    content: cardConfigSchema,
  }),
  listCards: defineEndpoint({
    method: 'GET',
    path: '/card/list',
    tag: 'cards',
    summary: 'The caller’s cards with masked numbers and balances',
    auth: 'user',
    content: cardListSchema,
  }),
  applyCard: defineEndpoint({
    method: 'POST',
    path: '/card/apply',
    tag: 'cards',
    summary: 'Apply for a virtual card (active at once) or a physical card (at most 3; 10 USDT fee in the same entry)',
    auth: 'user',
    kyc: 'basic',
    sensitiveAction: 'CARD_APPLY',
    isIdempotent: true,
    body: applyCardBodySchema,
    content: cardSchema,
    codes: [
      'CAPTCHA_FAILED',
      'CONFLICT',
      'INSUFFICIENT_BALANCE',
      'ACCOUNT_FROZEN',
      'CARD_PHYSICAL_LIMIT_REACHED',
      'CARD_CURRENCY_NOT_OFFERED',
    ],
  }),
  bindCard: defineEndpoint({
    method: 'POST',
    path: '/card/bind',
    tag: 'cards',
    summary: 'Bind a pre-activated physical card with its number and activation code (counts toward the 3)',
    auth: 'user',
    kyc: 'basic',
    body: bindCardBodySchema,
    content: cardSchema,
    codes: ['CARD_BIND_FAILED', 'CARD_PHYSICAL_LIMIT_REACHED', 'ACCOUNT_FROZEN'],
  }),
  getCard: defineEndpoint({
    method: 'GET',
    path: '/card/:id',
    tag: 'cards',
    summary: 'One card with its limits, spend rules and pending limit request',
    auth: 'user',
    params: cardIdParamSchema,
    content: cardDetailSchema,
    codes: ['NOT_FOUND'],
  }),
  quoteTopUp: defineEndpoint({
    method: 'POST',
    path: '/card/:id/topup/quote',
    tag: 'cards',
    summary: 'A top-up quote at a locked rate, valid 30 seconds',
    auth: 'user',
    kyc: 'basic',
    params: cardIdParamSchema,
    body: cardTopUpQuoteBodySchema,
    content: cardTopUpQuoteSchema,
    codes: [
      'NOT_FOUND',
      'CARD_NOT_ACTIVE',
      'CARD_COIN_OFF_PEG',
      'PRICE_UNAVAILABLE',
      'AMOUNT_BELOW_MIN',
      'AMOUNT_ABOVE_MAX',
    ],
  }),
  topUp: defineEndpoint({
    method: 'POST',
    path: '/card/:id/topup',
    tag: 'cards',
    summary: 'Execute a top-up quote, exactly once: the coin leaves the wallet, the card is credited',
    auth: 'user',
    kyc: 'basic',
    sensitiveAction: 'CARD_TOPUP',
    isIdempotent: true,
    params: cardIdParamSchema,
    body: cardTopUpBodySchema,
    content: cardTransactionSchema,
    codes: [
      'NOT_FOUND',
      'CAPTCHA_FAILED',
      'CONFLICT',
      'QUOTE_EXPIRED',
      'CARD_QUOTE_USED',
      'INSUFFICIENT_BALANCE',
      'ACCOUNT_FROZEN',
      'CARD_NOT_ACTIVE',
    ],
  }),
  setLock: defineEndpoint({
    method: 'POST',
    path: '/card/:id/lock',
    tag: 'cards',
    summary: 'Lock or unlock the card at once (a locked card declines every payment)',
    auth: 'user',
    params: cardIdParamSchema,
    body: cardLockBodySchema,
    content: cardSchema,
    codes: ['NOT_FOUND', 'CARD_NOT_ACTIVE'],
  }),
  revealCard: defineEndpoint({
    method: 'POST',
    path: '/card/:id/reveal',
    tag: 'cards',
    summary: 'The full number, CVV and expiry from the processor (security check; shown for 60 s, never stored)',
    auth: 'user',
    kyc: 'basic',
    sensitiveAction: 'CARD_REVEAL',
    params: cardIdParamSchema,
    body: cardRevealBodySchema,
    content: cardRevealSchema,
    codes: ['NOT_FOUND', 'CAPTCHA_FAILED', 'CARD_NOT_ACTIVE'],
  }),
  setPin: defineEndpoint({
    method: 'POST',
    path: '/card/:id/pin',
    tag: 'cards',
    summary: 'Set or change the card PIN at the processor (security check)',
    auth: 'user',
    kyc: 'basic',
    sensitiveAction: 'CARD_PIN',
    params: cardIdParamSchema,
    body: cardPinBodySchema,
    content: cardSchema,
    codes: ['NOT_FOUND', 'CAPTCHA_FAILED', 'CARD_NOT_ACTIVE'],
  }),
  getSpendRules: defineEndpoint({
    method: 'GET',
    path: '/card/:id/rules',
    tag: 'cards',
    summary: 'The card’s spend rules',
    auth: 'user',
    params: cardIdParamSchema,
    content: cardSpendRulesSchema,
    codes: ['NOT_FOUND'],
  }),
  setSpendRules: defineEndpoint({
    method: 'PUT',
    path: '/card/:id/rules',
    tag: 'cards',
    summary: 'Set the card’s spend rules: blocked categories, per-transaction maximum, ask me above X',
    auth: 'user',
    params: cardIdParamSchema,
    body: setCardSpendRulesBodySchema,
    content: cardSpendRulesSchema,
    codes: ['NOT_FOUND', 'CARD_CURRENCY_MISMATCH'],
  }),
  listTransactions: defineEndpoint({
    method: 'GET',
    path: '/card/:id/transactions',
    tag: 'cards',
    summary: 'The card’s transactions, newest first, with decline reasons',
    auth: 'user',
    params: cardIdParamSchema,
    query: cardTransactionQuerySchema,
    content: cardTransactionPageSchema,
    codes: ['NOT_FOUND'],
  }),
  requestLimitChange: defineEndpoint({
    method: 'POST',
    path: '/card/:id/limit-request',
    tag: 'cards',
    summary: 'Ask customer service to change the card’s limits (handled in the back office)',
    auth: 'user',
    params: cardIdParamSchema,
    body: cardLimitRequestBodySchema,
    content: cardLimitRequestSchema,
    codes: ['NOT_FOUND', 'CARD_CURRENCY_MISMATCH', 'CARD_LIMIT_REQUEST_PENDING'],
  }),
  listConfirmations: defineEndpoint({
    method: 'GET',
    path: '/card/confirmations',
    tag: 'cards',
    summary: 'Payments waiting for the caller’s 3-D Secure or "ask me above X" confirmation',
    auth: 'user',
    content: z.array(cardConfirmationSchema),
  }),
  confirmPayment: defineEndpoint({
    method: 'POST',
    path: '/card/confirmation/:id',
    tag: 'cards',
    summary: 'Approve or reject a payment waiting for confirmation (valid 5 minutes)',
    auth: 'user',
    params: cardConfirmationIdParamSchema,
    body: cardConfirmBodySchema,
    content: cardTransactionSchema,
    codes: ['NOT_FOUND', 'CARD_CONFIRMATION_EXPIRED', 'CARD_CONFIRMATION_STATE_CHANGED'],
  }),
};
