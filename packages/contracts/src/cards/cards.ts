import { z } from 'zod';
import { uuidString } from '../limits.ts';
import { decimalAmountSchema, withAmountMinor } from '../money.ts';
import { sensitiveFactorsSchema } from '../security.ts';
import {
  cardKindSchema,
  cardNetworkSchema,
  cardCurrencySchema,
  cardStatusSchema,
  cardTopUpCoinSchema,
  cardNumberInputSchema,
  cardPinSchema,
  mccSchema,
} from './constants.ts';

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
