import { z } from 'zod';
import { INSTANT_LENGTH_MAX, SHORT_TEXT_LENGTH_MAX, uuidString } from './limits.ts';
import { defineEndpoint } from './endpoint.ts';
import { type AssetCode, decimalAmountSchema, withAmountMinor } from './money.ts';
import { pageQuerySchema, pageSchema } from './pagination.ts';
import { sensitiveFactorsSchema } from './security.ts';

/**
 * Card contracts (`/product/fiscard` and FiscardAccount, the PIN,
 * gating: cards need basic verification, declined payment reasons, card constants; docs/cards.md).
 *
 * A card is issued by the issuer processor (the built-in sandbox by default, ARCHITECTURE §6); Meridian
 * keeps the processor's token, the first 4 and last 4 digits and the expiry — never a full PAN or a
 * CVV (PCI DSS 3.3.1.2, 3.4.1). Each card has its own balance (a ledger account in the card's
 * currency), topped up from a stablecoin. Amounts on the wire are decimal strings with the
 * currency's precision (USD/EUR/GBP 2, JPY 0; USDT/USDC/USDE 6).
 */

// ---------------------------------------------------------------- constants

/**
 * Physical cards one user may apply for or bind, not counting cancelled or returned ones (3):
 * the default of the back office's card settings, which the cards module reads (`card/config`).
 */
export const PHYSICAL_CARDS_PER_USER_MAX = 3;
/** Production fee of a physical card in USDT (10 USDT), as a wire amount: the settings' default (changed with four eyes). */
export const CARD_PRODUCTION_FEE_USDT = '10';
/** Wrong PIN entries in a row that block a card (5). */
export const CARD_PIN_TRIES_MAX = 5;
/** How long a PIN block lasts unless an operator lifts it (24 h). */
export const CARD_PIN_BLOCK_HOURS = 24;
/** How long a 3-D Secure (or "ask me above X") push confirmation stays valid (5 minutes). */
export const CARD_CONFIRMATION_TTL_MS = 5 * 60 * 1000;
/** How long a top-up quote holds its locked rate (30 s). */
export const CARD_TOPUP_QUOTE_TTL_MS = 30_000;
/** How long revealed card details may stay on screen (the reveal closes after 60 s). */
export const CARD_REVEAL_TTL_MS = 60_000;
/** Merchant refund timing: after 72 hours, or 31 days if the merchant has not started refund or settlement. */
export const CARD_REFUND_AFTER_HOURS = 72;
export const CARD_REFUND_FALLBACK_DAYS = 31;

/** Card networks (Mastercard or Visa). */
export const CARD_NETWORKS = ['VISA', 'MASTERCARD'] as const;
export const cardNetworkSchema = z.enum(CARD_NETWORKS);
export type CardNetwork = z.infer<typeof cardNetworkSchema>;

/** Card kinds (physical and virtual). */
export const CARD_KINDS = ['VIRTUAL', 'PHYSICAL'] as const;
export const cardKindSchema = z.enum(CARD_KINDS);
export type CardKind = z.infer<typeof cardKindSchema>;

/** Card currencies (USD native, EUR, JPY, GBP). */
export const CARD_CURRENCIES = ['USD', 'EUR', 'JPY', 'GBP'] as const satisfies readonly AssetCode[];
export const cardCurrencySchema = z.enum(CARD_CURRENCIES);
export type CardCurrency = z.infer<typeof cardCurrencySchema>;

/**
 * Stablecoins a card is topped up from (USDT, USDE, USDC; "EURE to EUR is 1:1"). EURE is
 * Monerium's EUR e-money token: it tops up a EUR card at exactly 1:1 (no rate, no quote risk) and
 * other cards through the rate table as EUR.
 */
export const CARD_TOPUP_COINS = ['USDT', 'USDC', 'USDE', 'EURE'] as const satisfies readonly AssetCode[];
export const cardTopUpCoinSchema = z.enum(CARD_TOPUP_COINS);
export type CardTopUpCoin = z.infer<typeof cardTopUpCoinSchema>;

/**
 * Card statuses: UNDER_REVIEW (applied physical card), PROCESSING (being produced),
 * SHIPPED, ACTIVE (usable; virtual cards start here), FROZEN (by operators), CANCELLED, EXPIRED,
 * RETURNED (undeliverable). A user's lock is a separate switch (`isLocked`), not a status.
 */
export const CARD_STATUSES = [
  'UNDER_REVIEW',
  'PROCESSING',
  'SHIPPED',
  'ACTIVE',
  'FROZEN',
  'CANCELLED',
  'EXPIRED',
  'RETURNED',
] as const;
export const cardStatusSchema = z.enum(CARD_STATUSES);
export type CardStatus = z.infer<typeof cardStatusSchema>;

/**
 * Why an authorisation was declined (the card FAQ: wrong PIN or expiry date, exceeded PIN tries, 3DS
 * problems, automated security declines; and insufficient funds, locked, limit exceeded).
 */
export const CARD_DECLINE_REASONS = [
  'INSUFFICIENT_FUNDS',
  'CARD_LOCKED',
  'CARD_NOT_ACTIVE',
  'WRONG_PIN',
  'PIN_TRIES_EXCEEDED',
  'WRONG_EXPIRY',
  'THREE_DS_FAILED',
  'LIMIT_EXCEEDED',
  'MERCHANT_CATEGORY_BLOCKED',
  'CURRENCY_NOT_SUPPORTED',
  'SUSPECTED_FRAUD',
] as const;
export const cardDeclineReasonSchema = z.enum(CARD_DECLINE_REASONS);
export type CardDeclineReason = z.infer<typeof cardDeclineReasonSchema>;

/**
 * Kinds of a card transaction: PURCHASE (an authorisation, then its clearing), REFUND (a merchant
 * credit), TOPUP (from a stablecoin), FEE (the production fee is charged to the wallet, listed here too).
 */
export const CARD_TRANSACTION_KINDS = ['PURCHASE', 'REFUND', 'TOPUP', 'FEE'] as const;
export const cardTransactionKindSchema = z.enum(CARD_TRANSACTION_KINDS);
export type CardTransactionKind = z.infer<typeof cardTransactionKindSchema>;

/**
 * Transaction statuses: PENDING_CONFIRMATION (waiting for the user's 3-D Secure / "ask me above X"
 * push, 5 minutes), AUTHORIZED (amount held), CLEARED (posted), REVERSED (hold released), DECLINED
 * (with `declineReason`), COMPLETED (top-ups, fees, refunds).
 */
export const CARD_TRANSACTION_STATUSES = [
  'PENDING_CONFIRMATION',
  'AUTHORIZED',
  'CLEARED',
  'REVERSED',
  'DECLINED',
  'COMPLETED',
] as const;
export const cardTransactionStatusSchema = z.enum(CARD_TRANSACTION_STATUSES);
export type CardTransactionStatus = z.infer<typeof cardTransactionStatusSchema>;

/** A merchant category code: four digits (ISO 18245). */
export const mccSchema = z
  .string()
  .max(4, { abort: true })
  .regex(/^\d{4}$/, { error: 'validation.cardMcc' });
/** A card PIN: four digits. */
export const cardPinSchema = z
  .string()
  .max(4, { abort: true })
  .regex(/^\d{4}$/, { error: 'validation.cardPin' });

/** A card number as a user types it (13–19 digits, spaces allowed). */
export const cardNumberInputSchema = z
  .string()
  .max(SHORT_TEXT_LENGTH_MAX)
  .transform((text) => text.replace(/\s+/g, ''))
  .pipe(
    z
      .string()
      .max(19, { abort: true })
      .regex(/^\d{13,19}$/, { error: 'validation.cardNumber' }),
  );

// ---------------------------------------------------------------- cards

/** A postal address for a physical card. */
export const shippingAddressSchema = z.object({
  recipient: z.string().trim().min(1, { error: 'validation.required' }).max(100, { error: 'validation.tooLong' }),
  line1: z.string().trim().min(1, { error: 'validation.required' }).max(120, { error: 'validation.tooLong' }),
  line2: z.string().trim().max(120, { error: 'validation.tooLong' }).optional(),
  city: z.string().trim().min(1, { error: 'validation.required' }).max(80, { error: 'validation.tooLong' }),
  postalCode: z.string().trim().max(20, { error: 'validation.tooLong' }).optional(),
  /** ISO 3166-1 alpha-2. */
  country: z
    .string()
    .max(2, { abort: true })
    .regex(/^[A-Z]{2}$/, { error: 'validation.country' }),
  phone: z.string().trim().min(5, { error: 'validation.required' }).max(30, { error: 'validation.tooLong' }),
});
export type ShippingAddress = z.infer<typeof shippingAddressSchema>;

/** The per-card limits (amounts in the card's currency; null = no limit). */
export const cardLimitsSchema = z.object({
  perTransaction: z.string().nullable(),
  daily: z.string().nullable(),
  monthly: z.string().nullable(),
});
export type CardLimits = z.infer<typeof cardLimitsSchema>;

/**
 * A card as its holder sees it. `maskedNumber` is the first 4 and last 4 digits (for example
 * "4242 •••• •••• 4242"); `balance` and `held` are in `currency`; `pinBlockedUntil` is set while
 * five wrong PINs block the card. Times are ISO instants.
 */
export const cardSchema = z.object({
  id: z.number().int(),
  kind: cardKindSchema,
  network: cardNetworkSchema,
  currency: cardCurrencySchema,
  status: cardStatusSchema,
  isLocked: z.boolean(),
  first4: z.string(),
  last4: z.string(),
  maskedNumber: z.string(),
  expiryMonth: z.number().int(),
  expiryYear: z.number().int(),
  cardholderName: z.string(),
  /** The employee a PRO account issued the card to; null for the holder's own cards. */
  employeeName: z.string().nullable(),
  /** Spendable balance (what is not held). */
  balance: z.string(),
  /** Amount held by authorisations waiting for clearing. */
  held: z.string(),
  pinBlockedUntil: z.string().nullable(),
  isPinSet: z.boolean(),
  /** True for a pre-activated physical card that was bound (not applied for). */
  isBound: z.boolean(),
  createdAt: z.string(),
});
export type Card = z.infer<typeof cardSchema>;
export const cardListSchema = z.array(cardSchema);

/** Per-card spend rules the user sets: categories blocked, a per-transaction maximum, "ask me above X". */
export const cardSpendRulesSchema = z.object({
  blockedMccs: z.array(z.string()),
  /** Per-transaction maximum in the card's currency; null = none (the card's own limit still applies). */
  perTransactionMax: z.string().nullable(),
  /** In-person payments above this ask for a push confirmation (5 minutes); null = never. */
  askAbove: z.string().nullable(),
});
export type CardSpendRules = z.infer<typeof cardSpendRulesSchema>;

/** A limit-change request to customer service (limits change only through the back office). */
export const cardLimitRequestSchema = z.object({
  id: z.number().int(),
  cardId: z.number().int(),
  state: z.enum(['PENDING', 'APPROVED', 'REJECTED']),
  requested: cardLimitsSchema,
  reason: z.string(),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
});
export type CardLimitRequest = z.infer<typeof cardLimitRequestSchema>;

/** A card with its limits, spend rules and pending limit request. */
export const cardDetailSchema = cardSchema.extend({
  limits: cardLimitsSchema,
  spendRules: cardSpendRulesSchema,
  /** The limit-change request waiting for customer service; null when none. */
  pendingLimitRequest: cardLimitRequestSchema.nullable(),
  shippingAddress: shippingAddressSchema.nullable(),
});
export type CardDetail = z.infer<typeof cardDetailSchema>;

/**
 * `GET card/config`: what the apply form needs. `isVirtualFeeWaived` is the dated promotion switch
 * (no issuing fee for virtual cards while it lasts); `physicalCardsLeft` counts down from 3.
 */
export const cardConfigSchema = z.object({
  networks: z.array(cardNetworkSchema),
  currencies: z.array(cardCurrencySchema),
  topUpCoins: z.array(z.object({ coin: cardTopUpCoinSchema, isAtPar: z.boolean() })),
  physicalFee: z.object({ coin: z.literal('USDT'), amount: z.string() }),
  virtualFee: z.object({ coin: z.literal('USDT'), amount: z.string() }),
  isVirtualFeeWaived: z.boolean(),
  promotionEndsAt: z.string().nullable(),
  physicalCardsMax: z.number().int(),
  physicalCardsLeft: z.number().int(),
  /** Currencies a virtual card can be applied for in now (back-office card settings). */
  virtualCurrencies: z.array(cardCurrencySchema),
  /** Least and most of a coin one top-up spends, in units of the coin (6 decimals). */
  topUpMin: z.string(),
  topUpMax: z.string(),
});
export type CardConfig = z.infer<typeof cardConfigSchema>;

/**
 * `POST card/apply` body (CARD_APPLY security check: the application may charge the wallet).
 * A physical card needs `shippingAddress` (refused on that field otherwise).
 */
export const applyCardBodySchema = sensitiveFactorsSchema
  .extend({
    kind: cardKindSchema,
    network: cardNetworkSchema,
    currency: cardCurrencySchema,
    cardholderName: z
      .string()
      .trim()
      .min(2, { error: 'validation.required' })
      .max(26, { error: 'validation.tooLong' })
      .regex(/^[A-Za-z][A-Za-z .'-]*$/, { error: 'validation.cardholderName' }),
    shippingAddress: shippingAddressSchema.optional(),
  })
  .superRefine((body, context) => {
    if (body.kind === 'PHYSICAL' && body.shippingAddress === undefined)
      context.issues.push({
        code: 'custom',
        message: 'validation.required',
        input: body.shippingAddress,
        path: ['shippingAddress'],
      });
  });
export type ApplyCardBody = z.input<typeof applyCardBodySchema>;

/** `POST card/bind` body: a pre-activated physical card's number and the activation code that came with it. */
export const bindCardBodySchema = z.object({
  cardNumber: cardNumberInputSchema,
  activationCode: z
    .string()
    .max(6, { abort: true })
    .regex(/^\d{6}$/, { error: 'validation.code6' }),
});
export type BindCardBody = z.input<typeof bindCardBodySchema>;

export const cardIdParamSchema = z.object({ id: z.coerce.number().int().positive() });

/** `POST card/:id/topup/quote` body: the stablecoin and the amount of it to spend. */
export const cardTopUpQuoteBodySchema = withAmountMinor(
  z.object({ coin: cardTopUpCoinSchema, amount: decimalAmountSchema }),
  (body) => body.coin,
);
export type CardTopUpQuoteBody = z.input<typeof cardTopUpQuoteBodySchema>;

/**
 * A top-up quote: `amount` of `coin` leaves the wallet, `creditAmount` of the card's currency
 * reaches the card, at the locked `rate` (card currency per one coin, a decimal string: 1 for a
 * USD card inside the stablecoin band). Valid until `expiresAt` (30 s), executed once.
 */
export const cardTopUpQuoteSchema = z.object({
  quoteId: uuidString(),
  cardId: z.number().int(),
  coin: cardTopUpCoinSchema,
  amount: z.string(),
  currency: cardCurrencySchema,
  creditAmount: z.string(),
  rate: z.string(),
  expiresAt: z.string(),
});
export type CardTopUpQuote = z.infer<typeof cardTopUpQuoteSchema>;

/** `POST card/:id/topup` body (CARD_TOPUP security check): execute a quote, exactly once. */
export const cardTopUpBodySchema = sensitiveFactorsSchema.extend({ quoteId: uuidString() });
export type CardTopUpBody = z.input<typeof cardTopUpBodySchema>;

/** `POST card/:id/lock` body: lock (true) or unlock (false), at once. */
export const cardLockBodySchema = z.object({ isLocked: z.boolean() });

/** `POST card/:id/reveal` body (CARD_REVEAL security check). */
export const cardRevealBodySchema = sensitiveFactorsSchema;
/**
 * The full card details, fetched from the processor for this answer only (never stored by
 * Meridian). The page hides them at `hideAt` (60 s).
 */
export const cardRevealSchema = z.object({
  pan: z.string(),
  cvv: z.string(),
  expiryMonth: z.number().int(),
  expiryYear: z.number().int(),
  cardholderName: z.string(),
  hideAt: z.string(),
});
export type CardReveal = z.infer<typeof cardRevealSchema>;

/** `POST card/:id/pin` body (CARD_PIN security check): set or change the PIN (kept only at the processor). */
export const cardPinBodySchema = sensitiveFactorsSchema.extend({ pin: cardPinSchema });
export type CardPinBody = z.input<typeof cardPinBodySchema>;

/**
 * `PUT card/:id/rules` body. Amounts are in the card's currency, which the body repeats
 * (`currency`; a different one is refused with CARD_CURRENCY_MISMATCH) so they are parsed at the edge.
 */
export const setCardSpendRulesBodySchema = z
  .object({
    currency: cardCurrencySchema,
    blockedMccs: z.array(mccSchema).max(100, { error: 'validation.tooLong' }),
    perTransactionMax: decimalAmountSchema.nullable(),
    askAbove: decimalAmountSchema.nullable(),
  })
  .transform((body, context) => {
    const read = (field: 'perTransactionMax' | 'askAbove') => {
      const text = body[field];
      if (text === null) return null;
      const parsed = withAmountMinor(z.object({ amount: z.string() }), () => body.currency).safeParse({
        amount: text,
      });
      if (parsed.success) return parsed.data.amountMinor;
      for (const issue of parsed.error.issues)
        context.issues.push({ code: 'custom', message: issue.message, input: text, path: [field] });
      return null;
    };
    return {
      currency: body.currency,
      blockedMccs: [...new Set(body.blockedMccs)],
      perTransactionMaxMinor: read('perTransactionMax'),
      askAboveMinor: read('askAbove'),
    };
  });
export type SetCardSpendRulesBody = z.input<typeof setCardSpendRulesBodySchema>;

/** `POST card/:id/limit-request` body: the limits asked for (card currency; null = unchanged) and why. */
export const cardLimitRequestBodySchema = z.object({
  currency: cardCurrencySchema,
  perTransaction: decimalAmountSchema.nullable(),
  daily: decimalAmountSchema.nullable(),
  monthly: decimalAmountSchema.nullable(),
  reason: z.string().trim().min(1, { error: 'validation.required' }).max(500, { error: 'validation.tooLong' }),
});
export type CardLimitRequestBody = z.input<typeof cardLimitRequestBodySchema>;

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
