import { z } from 'zod';
import { defineEndpoint } from './endpoint.ts';
import { amountMinorSchema } from './money.ts';
import { ANY_OPERATOR } from './operators.ts';
import { SETTING_CHANGE_STATUSES, settingChangeDecisionFields } from './setting-change.ts';

/**
 * Back office "Products and settings", fund products: every operator reads the products; an admin creates fixed funds (period, rate, raise
 * window, amount rules) and switches a product on or off at once; a product's rate tiers are risky:
 * an admin proposes them and they apply only when a different admin approves (four eyes, the
 * settings workflow's kind `funds.rateTiers`). A change applies to the next daily accrual (never to days already accrued) and is written to the audit log
 * with its before and after. Amounts are USD decimal strings with 2 decimals; rates are percent per
 * year as decimal strings with at most 2 decimals ("3.65"), stored as basis points.
 */

/** Highest yearly rate an operator may set, in basis points (50.00 %): a typo guard, not a product rule. */
export const ANNUAL_RATE_BPS_MAX = 5000;
/** Longest fixed term an operator may create, in days (ten years). */
export const FIXED_TERM_DAYS_MAX = 3650;

const RATE_PATTERN = /^\d{1,2}(\.\d{1,2})?$/;
const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** A yearly rate in percent with at most 2 decimals, 0.00–50.00 ("3.65"). */
export const annualRatePctSchema = z
  .string()
  .max(5, { abort: true })
  .regex(RATE_PATTERN, { error: 'validation.annualRate' })
  .refine((text) => annualRateBpsOf(text) <= ANNUAL_RATE_BPS_MAX, { error: 'validation.annualRate' });

/** `annualRatePct` ("3.65") as basis points (365), exactly: the text has at most 2 decimals. */
export function annualRateBpsOf(annualRatePct: string): number {
  const [whole = '0', fraction = ''] = annualRatePct.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

/** A Hong Kong calendar date, YYYY-MM-DD. */
const dateSchema = z.string().max(10, { abort: true }).regex(DATE_PATTERN, { error: 'validation.date' });

/** One rate tier as operators edit it: up to `upTo` USD of a holding (null: no upper limit), `annualRatePct`. */
export const rateTierInputSchema = z.object({
  upTo: amountMinorSchema('USD').nullable(),
  annualRatePct: annualRatePctSchema,
});

/**
 * Tiers of a product: 1–5, each `upTo` above the one before, the last (and only the last) without
 * an upper limit. A failure names `tiers`.
 */
export const rateTiersSchema = z
  .array(rateTierInputSchema)
  .min(1, { error: 'validation.required' })
  .max(5, { error: 'validation.rateTiers' })
  .superRefine((tiers, context) => {
    const isOrdered = tiers.every((tier, index) => {
      const isLast = index === tiers.length - 1;
      if (isLast) return tier.upTo === null;
      const previous = index === 0 ? 0n : tiers[index - 1]!.upTo;
      return tier.upTo !== null && previous !== null && tier.upTo > previous;
    });
    if (!isOrdered) context.addIssue({ code: 'custom', path: [], message: 'validation.rateTiers' });
  });

/** A fund product as operators see it: every field, rates in percent, amounts in USD. */
export const opsFundProductSchema = z.object({
  productId: z.string(),
  type: z.enum(['CURRENT', 'FIXED']),
  nameEn: z.string(),
  nameZhHk: z.string(),
  /** Term in days; -1 for the current fund. */
  periodDays: z.number().int(),
  raiseStartDate: z.string().nullable(),
  raiseEndDate: z.string().nullable(),
  interestDate: z.string().nullable(),
  maturityDate: z.string().nullable(),
  min: z.string(),
  max: z.string(),
  /** Most one user may hold. */
  limit: z.string(),
  isActive: z.boolean(),
  tiers: z.array(z.object({ upTo: z.string().nullable(), annualRatePct: z.string() })),
  /** Users holding the product now (current fund: shares above zero; fixed: orders earning). */
  holderCount: z.number().int(),
  /** What they hold, USD. */
  heldTotal: z.string(),
});
export type OpsFundProduct = z.infer<typeof opsFundProductSchema>;

/**
 * `POST admin/fund-products`: a new fixed fund. The raise window starts today or later (Hong Kong)
 * and ends before `interestDate`; maturity = interest date + `periodDays`. `min` ≤ `max` ≤ `limit`
 * (`min` / `max` named). One rate for the whole holding.
 */
export const createFixedFundBodySchema = z
  .strictObject({
    nameEn: z.string().trim().min(1, { error: 'validation.required' }).max(80),
    nameZhHk: z.string().trim().min(1, { error: 'validation.required' }).max(80),
    periodDays: z.number().int().min(1).max(FIXED_TERM_DAYS_MAX),
    annualRatePct: annualRatePctSchema,
    raiseStartDate: dateSchema,
    raiseEndDate: dateSchema,
    interestDate: dateSchema,
    min: amountMinorSchema('USD'),
    max: amountMinorSchema('USD'),
    limit: amountMinorSchema('USD'),
  })
  .superRefine((body, context) => {
    if (!(body.raiseStartDate <= body.raiseEndDate && body.raiseEndDate < body.interestDate))
      context.addIssue({ code: 'custom', path: ['raiseEndDate'], message: 'validation.raiseWindow' });
    if (body.min > body.max) context.addIssue({ code: 'custom', path: ['min'], message: 'validation.minAboveMax' });
    if (body.max > body.limit) context.addIssue({ code: 'custom', path: ['max'], message: 'validation.minAboveMax' });
  });
export type CreateFixedFundBody = z.input<typeof createFixedFundBodySchema>;
export type ParsedCreateFixedFundBody = z.output<typeof createFixedFundBodySchema>;

export const fundProductParamsSchema = z.object({ id: z.string().min(1).max(64) });
/** `POST admin/fund-products/:id/tiers`: the product's proposed tiers, replacing the old ones once approved. */
export const updateRateTiersBodySchema = z.strictObject({ tiers: rateTiersSchema });
export type UpdateRateTiersBody = z.input<typeof updateRateTiersBodySchema>;

/** A product's tiers as a proposal stores them: `upTo` USD with 2 decimals or null, `annualRatePct` with 2 decimals. */
export const fundTierValuesSchema = z.object({
  tiers: z.array(z.object({ upTo: z.string().nullable(), annualRatePct: z.string() })),
});
export type FundTierValues = z.infer<typeof fundTierValuesSchema>;

export const FUND_SETTING_CHANGE_STATUSES = SETTING_CHANGE_STATUSES;

/**
 * A proposed change of a product's rate tiers (four eyes, docs/back-office.md "Four eyes"): the
 * tiers before and proposed, who proposed and who decided. It applies when a different admin approves.
 */
export const fundSettingChangeSchema = z.object({
  ...settingChangeDecisionFields,
  productId: z.string(),
  before: fundTierValuesSchema,
  after: fundTierValuesSchema,
});
export type FundSettingChange = z.infer<typeof fundSettingChangeSchema>;
export const fundSettingChangeParamsSchema = z.object({ id: z.coerce.number().int().min(1) });
/** `PUT admin/fund-products/:id/active`: switch subscriptions to the product on or off (holdings keep earning). */
export const setFundActiveBodySchema = z.strictObject({ isActive: z.boolean() });

/** The fund-product calls of the back office (reads: any operator; writes: admin only). */
export const fundSettingsEndpoints = {
  listFundProducts: defineEndpoint({
    method: 'GET',
    path: '/admin/fund-products',
    tag: 'back-office',
    summary: 'Fund products with their rate tiers, amount rules and holders',
    auth: 'operator',
    roles: ANY_OPERATOR,
    content: z.array(opsFundProductSchema),
    codes: ['LOGIN_EXPIRED', 'FORBIDDEN'],
  }),
  createFixedFund: defineEndpoint({
    method: 'POST',
    path: '/admin/fund-products',
    tag: 'back-office',
    summary: 'Create a fixed fund: term, rate, raise window, amount rules',
    auth: 'operator',
    roles: [],
    body: createFixedFundBodySchema,
    content: opsFundProductSchema,
    codes: ['LOGIN_EXPIRED', 'FORBIDDEN', 'CONFLICT'],
  }),
  proposeRateTiers: defineEndpoint({
    method: 'POST',
    path: '/admin/fund-products/:id/tiers',
    tag: 'back-office',
    summary: 'Propose a fund product’s rate tiers (a different admin approves; from the next daily accrual)',
    auth: 'operator',
    roles: [],
    params: fundProductParamsSchema,
    body: updateRateTiersBodySchema,
    content: fundSettingChangeSchema,
    codes: ['LOGIN_EXPIRED', 'FORBIDDEN', 'NOT_FOUND'],
  }),
  listFundSettingChanges: defineEndpoint({
    method: 'GET',
    path: '/admin/fund-products/changes',
    tag: 'back-office',
    summary: 'Proposed rate-tier changes of fund products, newest first',
    auth: 'operator',
    roles: ANY_OPERATOR,
    content: z.array(fundSettingChangeSchema),
    codes: ['LOGIN_EXPIRED', 'FORBIDDEN'],
  }),
  approveFundSettingChange: defineEndpoint({
    method: 'POST',
    path: '/admin/fund-products/changes/:id/approve',
    tag: 'back-office',
    summary: 'Approve and apply a proposed rate-tier change (not its proposer)',
    auth: 'operator',
    roles: [],
    params: fundSettingChangeParamsSchema,
    content: fundSettingChangeSchema,
    codes: [
      'LOGIN_EXPIRED',
      'FORBIDDEN',
      'NOT_FOUND',
      'FOUR_EYES_REQUIRED',
      'SETTING_CHANGE_STATE_CHANGED',
      'SETTING_CHANGE_STALE',
    ],
  }),
  rejectFundSettingChange: defineEndpoint({
    method: 'POST',
    path: '/admin/fund-products/changes/:id/reject',
    tag: 'back-office',
    summary: 'Reject a proposed rate-tier change (nothing changes)',
    auth: 'operator',
    roles: [],
    params: fundSettingChangeParamsSchema,
    content: fundSettingChangeSchema,
    codes: ['LOGIN_EXPIRED', 'FORBIDDEN', 'NOT_FOUND', 'SETTING_CHANGE_STATE_CHANGED'],
  }),
  setFundActive: defineEndpoint({
    method: 'PUT',
    path: '/admin/fund-products/:id/active',
    tag: 'back-office',
    summary: 'Open or close a fund product to new subscriptions',
    auth: 'operator',
    roles: [],
    params: fundProductParamsSchema,
    body: setFundActiveBodySchema,
    content: opsFundProductSchema,
    codes: ['LOGIN_EXPIRED', 'FORBIDDEN', 'NOT_FOUND'],
  }),
};
