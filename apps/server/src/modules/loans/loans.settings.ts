import type {
  LoanRiskLevels,
  LoanSettingChange,
  OpsLoanSettings,
  ProposeLoanRiskBody,
  UpdateLoanTermBody,
} from '@meridian/contracts/loan-settings';
import { loanRiskLevelsSchema, pctToBps } from '@meridian/contracts/loan-settings';
import type { LoanCoin } from '@meridian/contracts/loans';
import { type AmountMinor, toDecimalString } from '@meridian/contracts/money';
import { eq } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../platform/db/client.ts';
import { DomainError, FieldError } from '../../platform/http/errors.ts';
import type { SettingProposal, SettingsOperator, SettingsWorkflow } from '../admin/admin.types.ts';
import { loadSettings, loadTerms, type SettingsRow } from './loans.internal.ts';
import { bpsToPct } from './loans.rules.ts';
import { loanCoins, loanSettings, loanTerms } from './loans.tables.ts';

/** The settings workflow's kind of the loans' risky numbers (one settings row: target key ''). */
export const LOAN_RISK_KIND = 'loans.riskLevels';
const LOAN_RISK_KINDS = [LOAN_RISK_KIND] as const;

/** The risky numbers of the settings row (percent strings, the cure window in minutes). */
function riskLevelsOf(row: SettingsRow): Required<LoanRiskLevels> {
  return {
    initialLtvPct: bpsToPct(row.initialLtvBps),
    marginCallLtvPct: bpsToPct(row.marginCallLtvBps),
    liquidationLtvPct: bpsToPct(row.liquidationLtvBps),
    liquidationFeePct: bpsToPct(row.liquidationFeeBps),
    cureWindowMinutes: row.cureWindowMinutes,
    hardLiquidationLtvPct: bpsToPct(row.hardLiquidationLtvBps),
  };
}

/**
 * Same numbers where `before` has them (compared as basis points, so "70" equals "70.00"); a
 * proposal made before the cure window and hard level could be proposed does not compare them.
 */
function isSameLevels(current: LoanRiskLevels, before: LoanRiskLevels): boolean {
  return (Object.keys(before) as (keyof LoanRiskLevels)[]).every((key) => {
    const [a, b] = [current[key], before[key]];
    if (b === undefined) return true;
    return typeof b === 'number' ? a === b : a !== undefined && pctToBps(String(a)) === pctToBps(b);
  });
}

/** The row's columns `after` sets (the cure window and hard level only when `after` has them). */
function riskColumns(after: LoanRiskLevels) {
  return {
    initialLtvBps: pctToBps(after.initialLtvPct),
    marginCallLtvBps: pctToBps(after.marginCallLtvPct),
    liquidationLtvBps: pctToBps(after.liquidationLtvPct),
    liquidationFeeBps: pctToBps(after.liquidationFeePct),
    ...(after.cureWindowMinutes === undefined ? {} : { cureWindowMinutes: after.cureWindowMinutes }),
    ...(after.hardLiquidationLtvPct === undefined
      ? {}
      : { hardLiquidationLtvBps: pctToBps(after.hardLiquidationLtvPct) }),
  };
}

function toChange(row: SettingProposal): LoanSettingChange {
  return {
    id: row.id,
    before: loanRiskLevelsSchema.parse(row.before),
    after: loanRiskLevelsSchema.parse(row.after),
    status: row.status,
    proposedBy: row.proposedByEmail,
    proposedAt: row.proposedAt.toISOString(),
    decidedBy: row.decidedByEmail,
    decidedAt: row.decidedAt?.toISOString() ?? null,
  };
}

/**
 * Register the loans' risky numbers with the settings workflow (kind `loans.riskLevels`): the LTV
 * levels, the liquidation fee, the cure window and the hard liquidation level, proposed and approved
 * by admins, applied to the one `loan_settings` row under its row lock.
 */
export function registerLoanSettingKinds(workflow: SettingsWorkflow, now: () => Date): void {
  workflow.register<LoanRiskLevels>({
    kind: LOAN_RISK_KIND,
    valuesSchema: loanRiskLevelsSchema,
    proposerRoles: ['admin'],
    approverRoles: ['admin'],
    lock: async (tx) => void (await tx.select().from(loanSettings).where(eq(loanSettings.id, 1)).for('update')),
    read: async (tx) => riskLevelsOf(await loadSettings(tx)),
    isSame: isSameLevels,
    apply: async (tx, _key, after) => {
      const next = { ...riskLevelsOf(await loadSettings(tx)), ...after };
      // The stored hard level may have changed since a proposal that leaves it out.
      if (pctToBps(next.hardLiquidationLtvPct) < pctToBps(next.liquidationLtvPct))
        throw new DomainError('SETTING_CHANGE_STALE', { current: describe(next) });
      await tx
        .update(loanSettings)
        .set({ ...riskColumns(after), updatedAt: now() })
        .where(eq(loanSettings.id, 1));
    },
    describe,
  });
}

function describe(current: LoanRiskLevels): string {
  const text = `${current.initialLtvPct}/${current.marginCallLtvPct}/${current.liquidationLtvPct} %, fee ${current.liquidationFeePct} %`;
  if (current.cureWindowMinutes === undefined || current.hardLiquidationLtvPct === undefined) return text;
  return `${text}, cure ${current.cureWindowMinutes} min, hard ${current.hardLiquidationLtvPct} %`;
}

/**
 * Loan settings of the back office. Terms (APR, switch), coins (switch, minimum principal) and the per-user maximum apply
 * at once — to loans made from then on; a loan keeps the APR it was made with. The LTV levels, the
 * liquidation fee, the cure window and the hard liquidation level go through the settings workflow
 * of the admin module (kind `loans.riskLevels`, registered by `registerLoanSettingKinds`): applied
 * only when a different admin approves (153 for one's own, 156 once decided, 176 when the numbers
 * changed since the proposal). Every write answers its before and after for the audit log (the
 * routes note them).
 */
export function createLoanSettings(db: Db, now: () => Date, workflow: SettingsWorkflow) {
  async function view(tx: DbOrTx): Promise<OpsLoanSettings> {
    const settings = await loadSettings(tx);
    const terms = await loadTerms(tx);
    const coins = await tx.select().from(loanCoins).orderBy(loanCoins.sortOrder);
    const changes = await workflow.list({ kinds: LOAN_RISK_KINDS, limit: 20 }, tx);
    return {
      terms: terms.map((term) => ({
        termDays: term.termDays,
        annualRatePct: bpsToPct(term.annualRateBps),
        isEnabled: term.isEnabled,
      })),
      ...riskLevelsOf(settings),
      alertLtvPcts: settings.alertLevelsBps.map(bpsToPct),
      maxOutstandingUsd: toDecimalString(settings.maxOutstandingUsdMinor, 'USD'),
      coins: coins.map((row) => ({
        coin: row.coin as LoanCoin,
        isEnabled: row.isEnabled,
        minPrincipal: toDecimalString(row.minPrincipalMinor, row.coin as LoanCoin),
      })),
      changes: changes.map(toChange),
    };
  }

  return {
    /** `GET admin/loan-settings`. */
    view: () => view(db),

    /**
     * A term's APR and/or switch, at once. @throws DomainError NOT_FOUND (no such term).
     * @returns the term before and after, and the whole view.
     */
    async updateTerm(termDays: number, body: UpdateLoanTermBody) {
      return db.transaction(async (tx) => {
        const [before] = await tx.select().from(loanTerms).where(eq(loanTerms.termDays, termDays)).for('update');
        if (!before) throw new DomainError('NOT_FOUND');
        const [after] = await tx
          .update(loanTerms)
          .set({
            ...(body.annualRatePct === undefined ? {} : { annualRateBps: pctToBps(body.annualRatePct) }),
            ...(body.isEnabled === undefined ? {} : { isEnabled: body.isEnabled }),
            updatedAt: now(),
          })
          .where(eq(loanTerms.termDays, termDays))
          .returning();
        const summary = (row: typeof before) => ({
          termDays: row.termDays,
          annualRatePct: bpsToPct(row.annualRateBps),
          isEnabled: row.isEnabled,
        });
        return { before: summary(before), after: summary(after!), settings: await view(tx) };
      });
    },

    /** A coin's switch and/or minimum principal (minor units), at once. @throws DomainError NOT_FOUND. */
    async updateCoin(
      coin: LoanCoin,
      body: { isEnabled?: boolean | undefined; minPrincipal?: AmountMinor | undefined },
    ) {
      return db.transaction(async (tx) => {
        const [before] = await tx.select().from(loanCoins).where(eq(loanCoins.coin, coin)).for('update');
        if (!before) throw new DomainError('NOT_FOUND');
        const [after] = await tx
          .update(loanCoins)
          .set({
            ...(body.isEnabled === undefined ? {} : { isEnabled: body.isEnabled }),
            ...(body.minPrincipal === undefined ? {} : { minPrincipalMinor: body.minPrincipal }),
            updatedAt: now(),
          })
          .where(eq(loanCoins.coin, coin))
          .returning();
        const summary = (row: typeof before) => ({
          coin,
          isEnabled: row.isEnabled,
          minPrincipal: toDecimalString(row.minPrincipalMinor, coin),
        });
        return { before: summary(before), after: summary(after!), settings: await view(tx) };
      });
    },

    /** The per-user maximum outstanding (USD cents), at once. */
    async updateLimits(maxOutstandingUsdMinor: AmountMinor) {
      return db.transaction(async (tx) => {
        const [before] = await tx.select().from(loanSettings).where(eq(loanSettings.id, 1)).for('update');
        await tx.update(loanSettings).set({ maxOutstandingUsdMinor, updatedAt: now() }).where(eq(loanSettings.id, 1));
        return {
          before: { maxOutstandingUsd: toDecimalString(before!.maxOutstandingUsdMinor, 'USD') },
          after: { maxOutstandingUsd: toDecimalString(maxOutstandingUsdMinor, 'USD') },
          settings: await view(tx),
        };
      });
    },

    /**
     * Propose new risky numbers (validated by the contract); the cure window and hard level keep
     * their stored values when the body leaves them out. Nothing applies yet.
     * @throws FieldError hardLiquidationLtvPct (validation.hardLtvOrder) when the liquidation LTV
     *   would pass the stored hard level.
     */
    async propose(operator: SettingsOperator, body: ProposeLoanRiskBody): Promise<LoanSettingChange> {
      const stored = await loadSettings(db);
      const hardBps =
        body.hardLiquidationLtvPct === undefined ? stored.hardLiquidationLtvBps : pctToBps(body.hardLiquidationLtvPct);
      if (pctToBps(body.liquidationLtvPct) > hardBps)
        throw new FieldError('hardLiquidationLtvPct', 'validation.hardLtvOrder');
      return toChange(await workflow.propose(operator, LOAN_RISK_KIND, '', body));
    },

    /**
     * Approve and apply a proposal through the settings workflow (the settings row locked, its
     * numbers still the proposal's `before`, then set to `after`).
     * @throws DomainError NOT_FOUND; FOUR_EYES_REQUIRED (153) for the proposer;
     *   SETTING_CHANGE_STATE_CHANGED (156, `{ status }`) once decided; SETTING_CHANGE_STALE (176)
     *   when the numbers changed since — nothing changes then and the proposal stays proposed.
     */
    approve: async (operator: SettingsOperator, id: number) =>
      toChange(await workflow.approve(operator, id, LOAN_RISK_KINDS)),

    /** Reject a proposal (any admin; nothing changes). @throws NOT_FOUND; SETTING_CHANGE_STATE_CHANGED (156). */
    reject: async (operator: SettingsOperator, id: number) =>
      toChange(await workflow.reject(operator, id, LOAN_RISK_KINDS)),
  };
}

export type LoanSettingsService = ReturnType<typeof createLoanSettings>;
