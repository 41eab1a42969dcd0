import { z } from 'zod';
import { INSTANT_LENGTH_MAX } from './limits.ts';
import { CARD_CURRENCIES, type CardCurrency, cardCurrencySchema } from './cards.ts';
import { defineEndpoint } from './endpoint.ts';
import { ASSET_PRECISION, decimalAmountSchema, parseAmountMinor } from './money.ts';
import { ANY_OPERATOR } from './operators.ts';
import { SETTING_CHANGE_STATUSES, settingChangeDecisionFields } from './setting-change.ts';

/**
 * Back office "Products and settings", card programme settings (each change is audited;
 * risky changes (LTV levels, fees) take effect after a second approval; by default 3 cards per user,
 * fee 10 USDT; docs/back-office.md "Card settings"). Every operator reads them; an admin changes the number
 * of physical cards per user, the virtual-card promotion, the currencies virtual cards are issued
 * in, the top-up minimum and maximum and the default limits of new cards at once (audited with
 * before and after). The risky changes are only proposed, and a different admin approves the
 * proposal before it applies (four eyes, docs/back-office.md "Card settings"): the two fees — the
 * physical card's production fee and the virtual card's issuing fee — and the rate table, which
 * prices every top-up and every foreign-currency card payment like a spread. Amounts are decimal strings: fees in
 * USDT (6 decimals), top-up bounds in units of the stablecoin (6 decimals), limits in the card's
 * currency (USD/EUR/GBP 2 decimals, JPY 0).
 */

/** Most a fee may be set to, USDT (a typing slip of 1000× is refused, not proposed). */
export const CARD_FEE_USDT_MAX = '1000';
/** Most physical cards per user an admin may allow (the default is 3). */
export const PHYSICAL_CARDS_MAX_LIMIT = 20;
/** The rate table's bound: units of a card currency per 1 USD, above 0 and at most this. */
export const CARD_RATE_MAX = 1_000_000;
const RATE_PATTERN = /^(0|[1-9]\d{0,6})(\.\d{1,8})?$/;

/** True when `text` is a USDT amount with at most 6 decimals between 0 and `CARD_FEE_USDT_MAX`. */
function isFeeText(text: string): boolean {
  try {
    const minor = parseAmountMinor(text, 'USDT');
    return minor <= parseAmountMinor(CARD_FEE_USDT_MAX, 'USDT');
  } catch {
    return false;
  }
}

/** A card fee in USDT: 0–1,000, at most 6 decimals ("10", "7.5"). Zero means no fee. */
export const cardFeeUsdtSchema = decimalAmountSchema.refine(isFeeText, { error: 'validation.cardFee' });

/** A rate of the table: units of a card currency per 1 USD, above 0, at most 1,000,000, at most 8 decimals. */
export const cardRateSchema = z
  .string()
  .max(16, { abort: true })
  .regex(RATE_PATTERN, { error: 'validation.cardRate' })
  .refine((text) => Number(text) > 0 && Number(text) <= CARD_RATE_MAX, { error: 'validation.cardRate' });

/** The two fees, applied together once approved (USDT decimal strings). */
export const cardFeesSchema = z.object({ physicalFeeUsdt: z.string(), virtualFeeUsdt: z.string() });
export type CardFees = z.infer<typeof cardFeesSchema>;

/** The rate table an admin proposes: units of EUR, GBP and JPY per 1 USD (decimal strings; USD is 1). */
export const cardFxRatesSchema = z.object({ EUR: z.string(), GBP: z.string(), JPY: z.string() });
export type CardFxRates = z.infer<typeof cardFxRatesSchema>;

export const CARD_SETTING_CHANGE_STATUSES = SETTING_CHANGE_STATUSES;
export type CardSettingChangeStatus = (typeof CARD_SETTING_CHANGE_STATUSES)[number];

/** What a proposal changes: both fees, or the whole rate table. */
export const CARD_SETTING_CHANGE_KINDS = ['fees', 'fxRates'] as const;
export type CardSettingChangeKind = (typeof CARD_SETTING_CHANGE_KINDS)[number];

/** Who proposed and decided a change, and its state (common to every kind). */
const cardSettingChangeFields = settingChangeDecisionFields;

/**
 * A proposed risky change of the card programme, by `kind`: the fees (`before` / `after` both fees)
 * or the rate table (`before` / `after` the three rates), who proposed and who decided.
 */
export const cardSettingChangeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('fees'), before: cardFeesSchema, after: cardFeesSchema, ...cardSettingChangeFields }),
  z.object({
    kind: z.literal('fxRates'),
    before: cardFxRatesSchema,
    after: cardFxRatesSchema,
    ...cardSettingChangeFields,
  }),
]);
export type CardSettingChange = z.infer<typeof cardSettingChangeSchema>;

/** Default limits of a new card in one currency (decimal strings of that currency). */
export const cardDefaultLimitsSchema = z.object({
  currency: cardCurrencySchema,
  perTransaction: z.string(),
  daily: z.string(),
  monthly: z.string(),
});
export type CardDefaultLimits = z.infer<typeof cardDefaultLimitsSchema>;

/** The card programme as operators see it. */
export const opsCardSettingsSchema = z.object({
  /** Production fee of a physical card, USDT (10). */
  physicalFeeUsdt: z.string(),
  /** Issuing fee of a virtual card outside the promotion, USDT. */
  virtualFeeUsdt: z.string(),
  /** Physical cards one user may hold (cancelled, returned and expired ones not counted; default 3). */
  physicalCardsMax: z.number().int(),
  /** The promotion's switch: off, virtual cards pay the fee whatever the dates say. */
  isPromotionEnabled: z.boolean(),
  promotionStartsAt: z.string().nullable(),
  promotionEndsAt: z.string().nullable(),
  /** Whether the promotion waives the virtual-card fee now (switch on and now inside the dates). */
  isPromotionOn: z.boolean(),
  /** Currencies a virtual card can be applied for in (USD, EUR, JPY, GBP). */
  virtualCurrencies: z.array(cardCurrencySchema),
  /** Least and most of a stablecoin one top-up spends, in units of the coin (6 decimals). */
  topUpMin: z.string(),
  topUpMax: z.string(),
  /** Limits a new card starts with, per currency (changed per card only by a limit-change request). */
  defaultLimits: z.array(cardDefaultLimitsSchema),
  /** The rate table: units of each card currency per 1 USD (USD is 1). EURE → EUR is 1:1 outside it. */
  fxRates: z.array(z.object({ currency: cardCurrencySchema, unitsPerUsd: z.string() })),
  /** Proposals of fee and rate-table changes, newest first (the last 20). */
  changes: z.array(cardSettingChangeSchema),
});
export type OpsCardSettings = z.infer<typeof opsCardSettingsSchema>;

/** An ISO 8601 instant with its offset, or null (no bound). */
const instantSchema = z.iso.datetime({ offset: true, error: 'validation.dateTime' }).max(INSTANT_LENGTH_MAX).nullable();

/**
 * `PUT admin/card-settings/issuing`: the physical-card count, the promotion's switch and dates, and
 * the virtual-card currencies (each optional; at once). The promotion's start must come before its
 * end (named `promotionEndsAt`; checked against the stored dates too).
 */
export const updateCardIssuingBodySchema = z
  .strictObject({
    physicalCardsMax: z
      .number({ error: 'validation.cardsMax' })
      .int({ error: 'validation.cardsMax' })
      .min(0, { error: 'validation.cardsMax' })
      .max(PHYSICAL_CARDS_MAX_LIMIT, { error: 'validation.cardsMax' })
      .optional(),
    isPromotionEnabled: z.boolean().optional(),
    promotionStartsAt: instantSchema.optional(),
    promotionEndsAt: instantSchema.optional(),
    virtualCurrencies: z
      .array(cardCurrencySchema)
      .min(1, { error: 'validation.cardCurrencies' })
      .max(CARD_CURRENCIES.length)
      .refine((list) => new Set(list).size === list.length, { error: 'validation.cardCurrencies' })
      .optional(),
  })
  .superRefine((body, context) => {
    if (
      body.promotionStartsAt &&
      body.promotionEndsAt &&
      Date.parse(body.promotionStartsAt) >= Date.parse(body.promotionEndsAt)
    )
      context.addIssue({ code: 'custom', path: ['promotionEndsAt'], message: 'validation.promotionOrder' });
  });
export type UpdateCardIssuingBody = z.input<typeof updateCardIssuingBodySchema>;

/** A top-up bound: a positive amount of a stablecoin with at most 6 decimals. */
const topUpBoundSchema = decimalAmountSchema.refine(
  (text) => {
    try {
      return parseAmountMinor(text, 'USDT') > 0n;
    } catch {
      return false;
    }
  },
  { error: 'validation.cardTopUpBound' },
);

/** `PUT admin/card-settings/top-up`: least and most one top-up spends (coin units; min ≤ max, named `topUpMax`). */
export const updateCardTopUpBodySchema = z
  .strictObject({ topUpMin: topUpBoundSchema, topUpMax: topUpBoundSchema })
  .superRefine((body, context) => {
    try {
      if (parseAmountMinor(body.topUpMin, 'USDT') > parseAmountMinor(body.topUpMax, 'USDT'))
        context.addIssue({ code: 'custom', path: ['topUpMax'], message: 'validation.minAboveMax' });
    } catch {
      // Each bound's own refinement names it.
    }
  });
export type UpdateCardTopUpBody = z.input<typeof updateCardTopUpBodySchema>;

export const cardCurrencyParamsSchema = z.object({ currency: cardCurrencySchema });

/**
 * `PUT admin/card-settings/limits/:currency`: the default limits of new cards in that currency
 * (decimal strings of it; per transaction ≤ daily ≤ monthly, named `daily` / `monthly`). The
 * currency's precision is checked by the server, naming the field.
 */
export const updateCardLimitsBodySchema = z.strictObject({
  perTransaction: decimalAmountSchema,
  daily: decimalAmountSchema,
  monthly: decimalAmountSchema,
});
export type UpdateCardLimitsBody = z.input<typeof updateCardLimitsBodySchema>;

/** The currencies of the rate table an admin sets (USD is the unit, always 1). */
export const CARD_RATE_CURRENCIES = CARD_CURRENCIES.filter(
  (currency): currency is Exclude<CardCurrency, 'USD'> => currency !== 'USD',
);

/**
 * `POST admin/card-settings/fx-rates/changes`: propose units of EUR, GBP and JPY per 1 USD (each
 * named on a refusal), applied together on a second admin's approval.
 */
export const proposeCardFxRatesBodySchema = z.strictObject({
  EUR: cardRateSchema,
  GBP: cardRateSchema,
  JPY: cardRateSchema,
});
export type ProposeCardFxRatesBody = z.input<typeof proposeCardFxRatesBodySchema>;

/** `POST admin/card-settings/changes`: propose both fees (applied together on a second admin's approval). */
export const proposeCardFeesBodySchema = z.strictObject({
  physicalFeeUsdt: cardFeeUsdtSchema,
  virtualFeeUsdt: cardFeeUsdtSchema,
});
export type ProposeCardFeesBody = z.input<typeof proposeCardFeesBodySchema>;

export const cardSettingChangeParamsSchema = z.object({ id: z.coerce.number().int().min(1) });

/** Decimals of a card currency (for the limit forms). */
export const cardCurrencyDecimals = (currency: CardCurrency): number => ASSET_PRECISION[currency];

/** The card-settings calls of the back office (read: any operator; writes: admin only). */
export const cardSettingsEndpoints = {
  getCardSettings: defineEndpoint({
    method: 'GET',
    path: '/admin/card-settings',
    tag: 'back-office',
    summary: 'Card programme: fees, cards per user, promotion, currencies, top-up bounds, limits, rates, proposals',
    auth: 'operator',
    roles: ANY_OPERATOR,
    content: opsCardSettingsSchema,
    codes: ['LOGIN_EXPIRED', 'FORBIDDEN'],
  }),
  updateCardIssuing: defineEndpoint({
    method: 'PUT',
    path: '/admin/card-settings/issuing',
    tag: 'back-office',
    summary: 'Change the physical cards per user, the virtual-card promotion or currencies (at once)',
    auth: 'operator',
    roles: [],
    body: updateCardIssuingBodySchema,
    content: opsCardSettingsSchema,
    codes: ['LOGIN_EXPIRED', 'FORBIDDEN'],
  }),
  updateCardTopUp: defineEndpoint({
    method: 'PUT',
    path: '/admin/card-settings/top-up',
    tag: 'back-office',
    summary: 'Change the least and most one top-up spends (at once)',
    auth: 'operator',
    roles: [],
    body: updateCardTopUpBodySchema,
    content: opsCardSettingsSchema,
    codes: ['LOGIN_EXPIRED', 'FORBIDDEN'],
  }),
  updateCardLimits: defineEndpoint({
    method: 'PUT',
    path: '/admin/card-settings/limits/:currency',
    tag: 'back-office',
    summary: 'Change the default limits of new cards in a currency (at once; existing cards keep theirs)',
    auth: 'operator',
    roles: [],
    params: cardCurrencyParamsSchema,
    body: updateCardLimitsBodySchema,
    content: opsCardSettingsSchema,
    codes: ['LOGIN_EXPIRED', 'FORBIDDEN'],
  }),
  proposeCardFxRates: defineEndpoint({
    method: 'POST',
    path: '/admin/card-settings/fx-rates/changes',
    tag: 'back-office',
    summary:
      'Propose a new card rate table, units per 1 USD (a different admin approves; quotes given keep their rate)',
    auth: 'operator',
    roles: [],
    body: proposeCardFxRatesBodySchema,
    content: cardSettingChangeSchema,
    codes: ['LOGIN_EXPIRED', 'FORBIDDEN'],
  }),
  proposeCardFees: defineEndpoint({
    method: 'POST',
    path: '/admin/card-settings/changes',
    tag: 'back-office',
    summary: 'Propose new physical and virtual card fees (a different admin approves)',
    auth: 'operator',
    roles: [],
    body: proposeCardFeesBodySchema,
    content: cardSettingChangeSchema,
    codes: ['LOGIN_EXPIRED', 'FORBIDDEN'],
  }),
  approveCardSettingChange: defineEndpoint({
    method: 'POST',
    path: '/admin/card-settings/changes/:id/approve',
    tag: 'back-office',
    summary: 'Approve and apply a proposed fee or rate-table change (not its proposer)',
    auth: 'operator',
    roles: [],
    params: cardSettingChangeParamsSchema,
    content: cardSettingChangeSchema,
    codes: [
      'LOGIN_EXPIRED',
      'FORBIDDEN',
      'NOT_FOUND',
      'FOUR_EYES_REQUIRED',
      'SETTING_CHANGE_STATE_CHANGED',
      'SETTING_CHANGE_STALE',
    ],
  }),
  rejectCardSettingChange: defineEndpoint({
    method: 'POST',
    path: '/admin/card-settings/changes/:id/reject',
    tag: 'back-office',
    summary: 'Reject a proposed fee or rate-table change (nothing changes)',
    auth: 'operator',
    roles: [],
    params: cardSettingChangeParamsSchema,
    content: cardSettingChangeSchema,
    codes: ['LOGIN_EXPIRED', 'FORBIDDEN', 'NOT_FOUND', 'SETTING_CHANGE_STATE_CHANGED'],
  }),
};
