import { z } from 'zod';
import { ID_LENGTH_MAX } from './limits.ts';
import { defineEndpoint } from './endpoint.ts';
import { assetCodeSchema, decimalAmountSchema } from './money.ts';
import { ANY_OPERATOR } from './operators.ts';
import { SETTING_CHANGE_STATUSES, settingChangeDecisionFields } from './setting-change.ts';

export { SETTING_CHANGE_STATUSES, type SettingChangeStatus } from './setting-change.ts';

/**
 * Back office "Products and settings": coin networks and swap pairs. Any operator reads
 * them; only an admin changes them. Switches, limits and confirmations take effect at once; a change
 * to a FEE (a network's withdrawal fee) or a SPREAD (a pair's `spreadBps`) is risky: it is stored as
 * a proposed settings change and applies only when a different admin approves it (four eyes, 153).
 * Amounts on the wire are decimal strings of the coin ("1.5"), never numbers.
 */

/** A network of a coin as operators see and edit it; amounts are decimal strings of the coin. */
export const opsNetworkSettingSchema = z.object({
  coinCode: z.string(),
  network: z.string(),
  /** The coin itself is switched on (coins.is_enabled). */
  isCoinEnabled: z.boolean(),
  isDepositEnabled: z.boolean(),
  isWithdrawEnabled: z.boolean(),
  withdrawMin: z.string(),
  withdrawMax: z.string(),
  withdrawFee: z.string(),
  confirmationsRequired: z.number().int(),
});
export type OpsNetworkSetting = z.infer<typeof opsNetworkSettingSchema>;

/** A swap pair (`FROM/TO`) as operators see and edit it: the `from` limits are decimal strings of the `from` coin. */
export const opsPairSettingSchema = z.object({
  pair: z.string(),
  from: z.string(),
  to: z.string(),
  isEnabled: z.boolean(),
  /** Basis points taken off the market rate (10 = 0.1 %). */
  spreadBps: z.number().int(),
  fromMin: z.string(),
  fromMax: z.string(),
});
export type OpsPairSetting = z.infer<typeof opsPairSettingSchema>;

/** Highest spread an operator may set: 1,000 bps = 10 %. */
export const SPREAD_BPS_MAX = 1000;

/**
 * `PUT admin/settings/networks/:coin/:network`: the fields to change (each optional). Amounts are
 * decimal strings of the coin, checked against its precision by the server (a field error names the
 * field); `withdrawMin` ≤ `withdrawMax` (`withdrawMin` is named). A `withdrawFee` that differs is
 * proposed, not applied.
 */
export const updateNetworkSettingBodySchema = z.strictObject({
  isDepositEnabled: z.boolean().optional(),
  isWithdrawEnabled: z.boolean().optional(),
  withdrawMin: decimalAmountSchema.optional(),
  withdrawMax: decimalAmountSchema.optional(),
  withdrawFee: decimalAmountSchema.optional(),
  confirmationsRequired: z.number().int().min(0).max(1000).optional(),
});
export type UpdateNetworkSettingBody = z.infer<typeof updateNetworkSettingBodySchema>;

/**
 * `PUT admin/settings/pairs/:pair`: the fields to change. `fromMin`/`fromMax` are decimal strings of
 * the `from` coin (`fromMin` ≤ `fromMax`, `fromMin` named); `spreadBps` 0–1000, proposed, not applied.
 */
export const updatePairSettingBodySchema = z.strictObject({
  isEnabled: z.boolean().optional(),
  spreadBps: z.number().int().min(0).max(SPREAD_BPS_MAX).optional(),
  fromMin: decimalAmountSchema.optional(),
  fromMax: decimalAmountSchema.optional(),
});
export type UpdatePairSettingBody = z.infer<typeof updatePairSettingBodySchema>;

/**
 * What a risky change targets: a coin network (key `COIN/NETWORK`), a swap pair (key `FROM/TO`),
 * the loan rules, the card programme (key '' for their one settings row) or a fund product (key its id).
 */
export const SETTING_TARGET_KINDS = ['network', 'pair', 'loans', 'cards', 'funds'] as const;
export type SettingTargetKind = (typeof SETTING_TARGET_KINDS)[number];

/**
 * A risky settings change waiting for (or after) a second admin, of any kind of the settings
 * workflow: `kind` is `<targetKind>.<field>`; `before`/`after` are the values as text (a fee as a
 * decimal string of the coin, a spread as an integer of basis points; the loan, card and fund kinds
 * as one line, "40 / 70 / 80 % · 5 %").
 */
export const settingChangeSchema = z.object({
  ...settingChangeDecisionFields,
  /** 'network.withdrawFee' | 'pair.spreadBps' | 'loans.riskLevels' | 'cards.fees' | 'cards.fxRates' | 'funds.rateTiers'. */
  kind: z.string(),
  targetKind: z.enum(SETTING_TARGET_KINDS),
  targetKey: z.string(),
  /** The part of `kind` after its target kind: 'withdrawFee', 'spreadBps', 'riskLevels', 'fees', 'fxRates', 'rateTiers'. */
  field: z.string(),
  before: z.string(),
  after: z.string(),
});
export type SettingChange = z.infer<typeof settingChangeSchema>;

/** The answer of a settings PUT: the row as it now stands and the risky changes it proposed (maybe none). */
export const networkSettingUpdateSchema = z.object({
  setting: opsNetworkSettingSchema,
  proposed: z.array(settingChangeSchema),
});
export const pairSettingUpdateSchema = z.object({
  setting: opsPairSettingSchema,
  proposed: z.array(settingChangeSchema),
});

const networkParamsSchema = z.object({ coin: assetCodeSchema, network: z.string().min(1).max(32) });
/** A pair in the path is `FROM-TO` (a slash cannot be a path segment), e.g. `USDT-BTC`. */
const pairParamsSchema = z.object({
  pair: z
    .string()
    .max(ID_LENGTH_MAX, { abort: true })
    .regex(/^[A-Z]+-[A-Z]+$/)
    .transform((text) => text.replace('-', '/')),
});
const changeIdParamsSchema = z.object({ id: z.coerce.number().int().min(1) });
export const settingChangeQuerySchema = z.object({ status: z.enum(SETTING_CHANGE_STATUSES).optional() });

export const backOfficeSettingsEndpoints = {
  listNetworkSettings: defineEndpoint({
    method: 'GET',
    path: '/admin/settings/networks',
    tag: 'back-office',
    summary: 'Every coin network with its switches, withdrawal limits and fee, and confirmations',
    auth: 'operator',
    roles: ANY_OPERATOR,
    content: z.array(opsNetworkSettingSchema),
  }),
  updateNetworkSetting: defineEndpoint({
    method: 'PUT',
    path: '/admin/settings/networks/:coin/:network',
    tag: 'back-office',
    summary: 'Change a network: switches, limits, confirmations at once; a fee change waits for a second admin',
    auth: 'operator',
    roles: [],
    params: networkParamsSchema,
    body: updateNetworkSettingBodySchema,
    content: networkSettingUpdateSchema,
    codes: ['NOT_FOUND'],
  }),
  listPairSettings: defineEndpoint({
    method: 'GET',
    path: '/admin/settings/pairs',
    tag: 'back-office',
    summary: 'Every swap pair with its switch, spread and order limits',
    auth: 'operator',
    roles: ANY_OPERATOR,
    content: z.array(opsPairSettingSchema),
  }),
  updatePairSetting: defineEndpoint({
    method: 'PUT',
    path: '/admin/settings/pairs/:pair',
    tag: 'back-office',
    summary: 'Change a pair: switch and limits at once; a spread change waits for a second admin',
    auth: 'operator',
    roles: [],
    params: pairParamsSchema,
    body: updatePairSettingBodySchema,
    content: pairSettingUpdateSchema,
    codes: ['NOT_FOUND'],
  }),
  listSettingChanges: defineEndpoint({
    method: 'GET',
    path: '/admin/settings/changes',
    tag: 'back-office',
    summary:
      'Risky settings changes of every kind (fees, spreads, loan levels, card fees and rates, fund tiers), newest first',
    auth: 'operator',
    roles: ANY_OPERATOR,
    query: settingChangeQuerySchema,
    content: z.array(settingChangeSchema),
  }),
  approveSettingChange: defineEndpoint({
    method: 'POST',
    path: '/admin/settings/changes/:id/approve',
    tag: 'back-office',
    summary: 'Approve and apply a proposed fee or spread change (four eyes: not by its proposer)',
    auth: 'operator',
    roles: [],
    params: changeIdParamsSchema,
    content: settingChangeSchema,
    codes: ['NOT_FOUND', 'FOUR_EYES_REQUIRED', 'SETTING_CHANGE_STATE_CHANGED', 'SETTING_CHANGE_STALE'],
  }),
  rejectSettingChange: defineEndpoint({
    method: 'POST',
    path: '/admin/settings/changes/:id/reject',
    tag: 'back-office',
    summary: 'Reject a proposed fee or spread change',
    auth: 'operator',
    roles: [],
    params: changeIdParamsSchema,
    content: settingChangeSchema,
    codes: ['NOT_FOUND', 'SETTING_CHANGE_STATE_CHANGED'],
  }),
};
