import { z } from 'zod';
import { defineEndpoint } from './endpoint.ts';
import { LOAN_COINS, loanCoinSchema } from './loans.ts';
import { amountMinorSchema } from './money.ts';
import { ANY_OPERATOR } from './operators.ts';
import { SETTING_CHANGE_STATUSES, settingChangeDecisionFields } from './setting-change.ts';

/**
 * Back office "Products and settings", loan settings:
 * every operator reads the loan rules; an admin changes a term's APR or switch, a coin's switch or
 * minimum principal and the per-user maximum at once (audited with before and after). The risky
 * numbers — the LTV levels, the liquidation fee, the margin-call cure window and the hard
 * liquidation level (docs/decisions/0005-margin-call-before-liquidation.md) — are only proposed: a
 * different admin approves the proposal before it applies (four eyes, docs/back-office.md). Percentages are decimal strings
 * with at most 2 decimals ("12.5"), stored as basis points.
 */

const PCT_PATTERN = /^\d{1,2}(\.\d{1,2})?$/;

/** Basis points of a percentage text with at most 2 decimals ("12.5" → 1250), exactly. */
export function pctToBps(pct: string): number {
  const [whole = '0', fraction = ''] = pct.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

/** A loan APR in percent, 0.01–50.00, at most 2 decimals. */
export const loanAprPctSchema = z
  .string()
  .max(5, { abort: true })
  .regex(PCT_PATTERN, { error: 'validation.loanApr' })
  .refine((text) => pctToBps(text) >= 1 && pctToBps(text) <= 5000, { error: 'validation.loanApr' });

/** An LTV level in percent, 0.01–99.99, at most 2 decimals. */
export const ltvPctSchema = z
  .string()
  .max(5, { abort: true })
  .regex(PCT_PATTERN, { error: 'validation.ltvPct' })
  .refine((text) => pctToBps(text) >= 1, { error: 'validation.ltvPct' });

/** The liquidation fee in percent, 0.00–20.00, at most 2 decimals. */
export const liquidationFeePctSchema = z
  .string()
  .max(5, { abort: true })
  .regex(PCT_PATTERN, { error: 'validation.liquidationFee' })
  .refine((text) => pctToBps(text) <= 2000, { error: 'validation.liquidationFee' });

/** Longest margin-call cure window an admin may set: 10,080 minutes (7 days). */
export const CURE_WINDOW_MINUTES_MAX = 10_080;

/** The margin-call cure window, whole minutes 0–10,080. */
export const cureWindowMinutesSchema = z
  .number({ error: 'validation.cureWindow' })
  .int({ error: 'validation.cureWindow' })
  .min(0, { error: 'validation.cureWindow' })
  .max(CURE_WINDOW_MINUTES_MAX, { error: 'validation.cureWindow' });

/**
 * The risky numbers, applied together once approved (percent strings). The cure window (minutes)
 * and the hard liquidation level are absent from proposals made before they could be proposed:
 * such a proposal leaves them as they are.
 */
export const loanRiskLevelsSchema = z.object({
  initialLtvPct: z.string(),
  marginCallLtvPct: z.string(),
  liquidationLtvPct: z.string(),
  liquidationFeePct: z.string(),
  cureWindowMinutes: z.number().int().optional(),
  hardLiquidationLtvPct: z.string().optional(),
});
export type LoanRiskLevels = z.infer<typeof loanRiskLevelsSchema>;

export const LOAN_SETTING_CHANGE_STATUSES = SETTING_CHANGE_STATUSES;
export type LoanSettingChangeStatus = (typeof LOAN_SETTING_CHANGE_STATUSES)[number];

/** A proposed change of the risky numbers: what they were and would be, who proposed and decided. */
export const loanSettingChangeSchema = z.object({
  ...settingChangeDecisionFields,
  before: loanRiskLevelsSchema,
  after: loanRiskLevelsSchema,
});
export type LoanSettingChange = z.infer<typeof loanSettingChangeSchema>;

/** The loan rules as operators see them (percent strings; amounts as decimal strings). */
export const opsLoanSettingsSchema = z.object({
  terms: z.array(z.object({ termDays: z.number().int(), annualRatePct: z.string(), isEnabled: z.boolean() })),
  initialLtvPct: z.string(),
  marginCallLtvPct: z.string(),
  liquidationLtvPct: z.string(),
  /** Levels at which users are alerted (read only here). */
  alertLtvPcts: z.array(z.string()),
  liquidationFeePct: z.string(),
  /** Minutes a loan past the margin-call LTV is left after its margin call before it may be liquidated. */
  cureWindowMinutes: z.number().int(),
  /** LTV at which a loan is liquidated at once, cure window or not (percent string). */
  hardLiquidationLtvPct: z.string(),
  /** Most a user may owe across loans, USD (stablecoins at 1). */
  maxOutstandingUsd: z.string(),
  coins: z.array(z.object({ coin: z.enum(LOAN_COINS), isEnabled: z.boolean(), minPrincipal: z.string() })),
  /** Proposals of risky changes, newest first (the last 20). */
  changes: z.array(loanSettingChangeSchema),
});
export type OpsLoanSettings = z.infer<typeof opsLoanSettingsSchema>;

export const loanTermParamsSchema = z.object({ termDays: z.coerce.number().int().min(1).max(3650) });
/** `PUT admin/loan-settings/terms/:termDays`: a term's APR and/or switch (at once). */
export const updateLoanTermBodySchema = z.strictObject({
  annualRatePct: loanAprPctSchema.optional(),
  isEnabled: z.boolean().optional(),
});
export type UpdateLoanTermBody = z.input<typeof updateLoanTermBodySchema>;

export const loanCoinParamsSchema = z.object({ coin: loanCoinSchema });
/** `PUT admin/loan-settings/coins/:coin`: a coin's switch and/or minimum principal (6 decimals; at once). */
export const updateLoanCoinBodySchema = z.strictObject({
  isEnabled: z.boolean().optional(),
  minPrincipal: amountMinorSchema('USDT').optional(),
});
export type UpdateLoanCoinBody = z.input<typeof updateLoanCoinBodySchema>;

/** `PUT admin/loan-settings/limits`: the per-user maximum outstanding, USD (at once). */
export const updateLoanLimitsBodySchema = z.strictObject({ maxOutstandingUsd: amountMinorSchema('USD') });
export type UpdateLoanLimitsBody = z.input<typeof updateLoanLimitsBodySchema>;

/**
 * `POST admin/loan-settings/changes`: propose new LTV levels and liquidation fee, and optionally the
 * cure window (minutes) and the hard liquidation level, applied together on a second admin's
 * approval. initial < margin call < liquidation (named `marginCallLtvPct` / `liquidationLtvPct`);
 * liquidation ≤ hard level (named `hardLiquidationLtvPct`; the server checks it against the stored
 * level when the body leaves it out); fee + initial < 100 (named `liquidationFeePct`).
 */
export const proposeLoanRiskBodySchema = z
  .strictObject({
    initialLtvPct: ltvPctSchema,
    marginCallLtvPct: ltvPctSchema,
    liquidationLtvPct: ltvPctSchema,
    liquidationFeePct: liquidationFeePctSchema,
    cureWindowMinutes: cureWindowMinutesSchema.optional(),
    hardLiquidationLtvPct: ltvPctSchema.optional(),
  })
  .superRefine((body, context) => {
    const initial = pctToBps(body.initialLtvPct);
    const marginCall = pctToBps(body.marginCallLtvPct);
    const liquidation = pctToBps(body.liquidationLtvPct);
    if (!(initial < marginCall))
      context.addIssue({ code: 'custom', path: ['marginCallLtvPct'], message: 'validation.ltvOrder' });
    else if (!(marginCall < liquidation))
      context.addIssue({ code: 'custom', path: ['liquidationLtvPct'], message: 'validation.ltvOrder' });
    if (body.hardLiquidationLtvPct !== undefined && pctToBps(body.hardLiquidationLtvPct) < liquidation)
      context.addIssue({ code: 'custom', path: ['hardLiquidationLtvPct'], message: 'validation.hardLtvOrder' });
    if (initial + pctToBps(body.liquidationFeePct) >= 10000)
      context.addIssue({ code: 'custom', path: ['liquidationFeePct'], message: 'validation.liquidationFee' });
  });
export type ProposeLoanRiskBody = z.input<typeof proposeLoanRiskBodySchema>;

export const loanSettingChangeParamsSchema = z.object({ id: z.coerce.number().int().min(1) });

/** The loan-settings calls of the back office (read: any operator; writes: admin only). */
export const loanSettingsEndpoints = {
  getLoanSettings: defineEndpoint({
    method: 'GET',
    path: '/admin/loan-settings',
    tag: 'back-office',
    summary: 'Loan rules: terms and APRs, LTV levels, fee, limits, coins and proposed changes',
    auth: 'operator',
    roles: ANY_OPERATOR,
    content: opsLoanSettingsSchema,
    codes: ['LOGIN_EXPIRED', 'FORBIDDEN'],
  }),
  updateLoanTerm: defineEndpoint({
    method: 'PUT',
    path: '/admin/loan-settings/terms/:termDays',
    tag: 'back-office',
    summary: 'Change a loan term’s APR or switch it (applies to new loans at once)',
    auth: 'operator',
    roles: [],
    params: loanTermParamsSchema,
    body: updateLoanTermBodySchema,
    content: opsLoanSettingsSchema,
    codes: ['LOGIN_EXPIRED', 'FORBIDDEN', 'NOT_FOUND'],
  }),
  updateLoanCoin: defineEndpoint({
    method: 'PUT',
    path: '/admin/loan-settings/coins/:coin',
    tag: 'back-office',
    summary: 'Switch a loan coin or change its minimum principal (at once)',
    auth: 'operator',
    roles: [],
    params: loanCoinParamsSchema,
    body: updateLoanCoinBodySchema,
    content: opsLoanSettingsSchema,
    codes: ['LOGIN_EXPIRED', 'FORBIDDEN', 'NOT_FOUND'],
  }),
  updateLoanLimits: defineEndpoint({
    method: 'PUT',
    path: '/admin/loan-settings/limits',
    tag: 'back-office',
    summary: 'Change the most one user may owe (at once)',
    auth: 'operator',
    roles: [],
    body: updateLoanLimitsBodySchema,
    content: opsLoanSettingsSchema,
    codes: ['LOGIN_EXPIRED', 'FORBIDDEN'],
  }),
  proposeLoanRisk: defineEndpoint({
    method: 'POST',
    path: '/admin/loan-settings/changes',
    tag: 'back-office',
    summary: 'Propose new LTV levels and liquidation fee (a different admin approves)',
    auth: 'operator',
    roles: [],
    body: proposeLoanRiskBodySchema,
    content: loanSettingChangeSchema,
    codes: ['LOGIN_EXPIRED', 'FORBIDDEN'],
  }),
  approveLoanSettingChange: defineEndpoint({
    method: 'POST',
    path: '/admin/loan-settings/changes/:id/approve',
    tag: 'back-office',
    summary: 'Approve and apply a proposed LTV / fee change (not its proposer)',
    auth: 'operator',
    roles: [],
    params: loanSettingChangeParamsSchema,
    content: loanSettingChangeSchema,
    codes: [
      'LOGIN_EXPIRED',
      'FORBIDDEN',
      'NOT_FOUND',
      'FOUR_EYES_REQUIRED',
      'SETTING_CHANGE_STATE_CHANGED',
      'SETTING_CHANGE_STALE',
    ],
  }),
  rejectLoanSettingChange: defineEndpoint({
    method: 'POST',
    path: '/admin/loan-settings/changes/:id/reject',
    tag: 'back-office',
    summary: 'Reject a proposed LTV / fee change (nothing changes)',
    auth: 'operator',
    roles: [],
    params: loanSettingChangeParamsSchema,
    content: loanSettingChangeSchema,
    codes: ['LOGIN_EXPIRED', 'FORBIDDEN', 'NOT_FOUND', 'SETTING_CHANGE_STATE_CHANGED'],
  }),
};
