import {
  annualRateBpsOf,
  type FundSettingChange,
  type FundTierValues,
  fundTierValuesSchema,
} from '@meridian/contracts/fund-settings';
import { parseAmountMinor } from '@meridian/contracts/money';
import { asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import type { SettingProposal, SettingsOperator, SettingsWorkflow } from '../admin/admin.types.ts';
import { usd } from './funds.internal.ts';
import { fundProducts, fundRateTiers } from './funds.tables.ts';

/** The settings workflow's kind of a product's rate tiers (target key: the product id). */
export const FUND_TIERS_KIND = 'funds.rateTiers';
const FUND_KINDS = [FUND_TIERS_KIND] as const;

/** A yearly rate in basis points as the wire writes it: 365 → "3.65". */
const rateText = (bps: number) => (bps / 100).toFixed(2); // display of an exact bps integer

/** The tiers as a proposal stores them: `upTo` with 2 decimals ("10000.00"), rates with 2 ("4.00"). */
function normaliseTiers(values: FundTierValues): FundTierValues {
  return {
    tiers: values.tiers.map((tier) => ({
      upTo: tier.upTo === null ? null : usd(parseAmountMinor(tier.upTo, 'USD')),
      annualRatePct: rateText(annualRateBpsOf(tier.annualRatePct)),
    })),
  };
}

/** "3.65 % to 50000.00 · 2.00 % above": a product's tiers in a 176 message. */
function describeTiers(values: FundTierValues): string {
  return values.tiers
    .map((tier) => (tier.upTo === null ? `${tier.annualRatePct} % above` : `${tier.annualRatePct} % to ${tier.upTo}`))
    .join(' · ');
}

/** The tiers of `productId` in tier order, or null when there is no such product. */
async function readTiers(tx: DbOrTx, productId: string): Promise<FundTierValues | null> {
  const [product] = await tx.select({ id: fundProducts.id }).from(fundProducts).where(eq(fundProducts.id, productId));
  if (!product) return null;
  const rows = await tx
    .select()
    .from(fundRateTiers)
    .where(eq(fundRateTiers.productId, productId))
    .orderBy(asc(fundRateTiers.tierIndex));
  return {
    tiers: rows.map((row) => ({
      upTo: row.upToMinor === null ? null : usd(row.upToMinor),
      annualRatePct: rateText(row.annualRateBps),
    })),
  };
}

/**
 * Register a fund product's rate tiers with the settings workflow (docs/decisions/0015-settings-workflow.md):
 * kind `funds.rateTiers`, target key the product id, values `{ tiers: [{ upTo, annualRatePct }] }`
 * (USD and percent strings with 2 decimals). Admins propose and approve (never their own); the
 * approval locks the product row, refuses a proposal whose `before` is no longer the product's tiers
 * (176) and replaces the tiers in its transaction — the next daily accrual uses them.
 */
export function registerFundSettingKinds(workflow: SettingsWorkflow): void {
  workflow.register<FundTierValues>({
    kind: FUND_TIERS_KIND,
    valuesSchema: fundTierValuesSchema,
    proposerRoles: ['admin'],
    approverRoles: ['admin'],
    lock: async (tx, productId) => {
      await tx.select({ id: fundProducts.id }).from(fundProducts).where(eq(fundProducts.id, productId)).for('update');
    },
    read: readTiers,
    normalise: normaliseTiers,
    isSame: (current, before) => JSON.stringify(normaliseTiers(current)) === JSON.stringify(normaliseTiers(before)),
    apply: async (tx, productId, after) => {
      await tx.delete(fundRateTiers).where(eq(fundRateTiers.productId, productId));
      await tx.insert(fundRateTiers).values(
        after.tiers.map((tier, tierIndex) => ({
          productId,
          tierIndex,
          upToMinor: tier.upTo === null ? null : parseAmountMinor(tier.upTo, 'USD'),
          annualRateBps: annualRateBpsOf(tier.annualRatePct),
        })),
      );
    },
    describe: describeTiers,
  });
}

function toChange(row: SettingProposal): FundSettingChange {
  return {
    id: row.id,
    productId: row.targetKey,
    before: fundTierValuesSchema.parse(row.before),
    after: fundTierValuesSchema.parse(row.after),
    status: row.status,
    proposedBy: row.proposedByEmail,
    proposedAt: row.proposedAt.toISOString(),
    decidedBy: row.decidedByEmail,
    decidedAt: row.decidedAt?.toISOString() ?? null,
  };
}

/**
 * The back office's four-eyes rate tiers of fund products (`admin/fund-products/…tiers`,
 * `admin/fund-products/changes…`), each a thin call into the settings workflow with the one fund
 * kind: an id of another module's change answers 104 here.
 */
export function createFundSettings(workflow: SettingsWorkflow) {
  return {
    /**
     * Propose `tiers` for `productId` (validated by the contract: amounts in USD cents); nothing applies yet.
     * @throws DomainError NOT_FOUND (no such product); FORBIDDEN (not an admin).
     */
    async proposeTiers(
      operator: SettingsOperator,
      productId: string,
      tiers: readonly { upTo: bigint | null; annualRatePct: string }[],
    ): Promise<FundSettingChange> {
      const after: FundTierValues = {
        tiers: tiers.map((tier) => ({
          upTo: tier.upTo === null ? null : usd(tier.upTo),
          annualRatePct: tier.annualRatePct,
        })),
      };
      return toChange(await workflow.propose(operator, FUND_TIERS_KIND, productId, after));
    },

    /** Proposals of rate tiers, newest first (at most 200). */
    list: async (): Promise<FundSettingChange[]> => (await workflow.list({ kinds: FUND_KINDS })).map(toChange),

    /**
     * Approve and apply a proposal (from the next daily accrual; days accrued keep their interest).
     * @throws DomainError NOT_FOUND; FOUR_EYES_REQUIRED (153) for the proposer;
     *   SETTING_CHANGE_STATE_CHANGED (156) once decided; SETTING_CHANGE_STALE (176) when the tiers
     *   changed since the proposal — nothing changes then and the proposal stays proposed.
     */
    approve: async (operator: SettingsOperator, id: number) =>
      toChange(await workflow.approve(operator, id, FUND_KINDS)),

    /** Reject a proposal (any admin, its proposer too). @throws NOT_FOUND; SETTING_CHANGE_STATE_CHANGED (156). */
    reject: async (operator: SettingsOperator, id: number) => toChange(await workflow.reject(operator, id, FUND_KINDS)),
  };
}

/** The back office's fund-tier proposals (`createFundSettings`). */
export type FundSettingsService = ReturnType<typeof createFundSettings>;
