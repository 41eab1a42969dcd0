import type {
  LoanRiskLevels,
  LoanSettingChange,
  LoanSettingChangeStatus,
  OpsLoanSettings,
  UpdateLoanTermBody,
} from '@meridian/contracts/loan-settings';
import { pctToBps } from '@meridian/contracts/loan-settings';
import type { LoanCoin } from '@meridian/contracts/loans';
import { type AmountMinor, toDecimalString } from '@meridian/contracts/money';
import { and, desc, eq, ne } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../platform/db/client.ts';
import { DomainError } from '../../platform/http/errors.ts';
import { loadSettings, loadTerms } from './loans.internal.ts';
import { bpsToPct } from './loans.rules.ts';
import { loanCoins, loanSettingChanges, loanSettings, loanTerms } from './loans.tables.ts';

type ChangeRow = typeof loanSettingChanges.$inferSelect;

/** Who acts (an operator's id and email). */
export interface LoanSettingsOperator {
  id: number;
  email: string;
}

/** The risky numbers of the settings row as percent strings. */
function riskLevelsOf(row: Awaited<ReturnType<typeof loadSettings>>): LoanRiskLevels {
  return {
    initialLtvPct: bpsToPct(row.initialLtvBps),
    marginCallLtvPct: bpsToPct(row.marginCallLtvBps),
    liquidationLtvPct: bpsToPct(row.liquidationLtvBps),
    liquidationFeePct: bpsToPct(row.liquidationFeeBps),
  };
}

/** Same four numbers (compared as basis points, so "70" equals "70.00"). */
function isSameLevels(a: LoanRiskLevels, b: LoanRiskLevels): boolean {
  return (Object.keys(a) as (keyof LoanRiskLevels)[]).every((key) => pctToBps(a[key]) === pctToBps(b[key]));
}

function toChange(row: ChangeRow): LoanSettingChange {
  return {
    id: row.id,
    before: row.before,
    after: row.after,
    status: row.status as LoanSettingChangeStatus,
    proposedBy: row.proposedByEmail,
    proposedAt: row.proposedAt.toISOString(),
    decidedBy: row.decidedByEmail,
    decidedAt: row.decidedAt?.toISOString() ?? null,
  };
}

/**
 * Loan settings of the back office. Terms (APR, switch), coins (switch, minimum principal) and the per-user maximum apply
 * at once — to loans made from then on; a loan keeps the APR it was made with. The LTV levels and
 * the liquidation fee are proposed in `loan_setting_changes` and applied only when a different
 * admin approves (the same rules as `setting_changes` of the admin module: 153 for one's own, 156
 * once decided, 176 when the numbers changed since the proposal). Every write answers its before
 * and after for the audit log (the routes note them).
 */
export function createLoanSettings(db: Db, now: () => Date) {
  async function view(tx: DbOrTx): Promise<OpsLoanSettings> {
    const settings = await loadSettings(tx);
    const terms = await loadTerms(tx);
    const coins = await tx.select().from(loanCoins).orderBy(loanCoins.sortOrder);
    const changes = await tx.select().from(loanSettingChanges).orderBy(desc(loanSettingChanges.id)).limit(20);
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

  async function findChange(tx: DbOrTx, id: number): Promise<ChangeRow> {
    const [row] = await tx.select().from(loanSettingChanges).where(eq(loanSettingChanges.id, id));
    if (!row) throw new DomainError('NOT_FOUND');
    return row;
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

    /** Propose new LTV levels and fee (validated by the contract); nothing applies yet. */
    async propose(operator: LoanSettingsOperator, after: LoanRiskLevels): Promise<LoanSettingChange> {
      const before = riskLevelsOf(await loadSettings(db));
      const [row] = await db
        .insert(loanSettingChanges)
        .values({
          before,
          after,
          proposedById: operator.id,
          proposedByEmail: operator.email,
          proposedAt: now(),
        })
        .returning();
      return toChange(row!);
    },

    /**
     * Approve and apply a proposal in one transaction: claimed with `UPDATE … WHERE status =
     * 'proposed' AND proposed_by_id <> approver`, the settings row locked, its numbers still the
     * proposal's `before`, then set to `after`.
     * @throws DomainError NOT_FOUND; FOUR_EYES_REQUIRED (153) for the proposer;
     *   SETTING_CHANGE_STATE_CHANGED (156, `{ status }`) once decided; SETTING_CHANGE_STALE (176)
     *   when the numbers changed since — nothing changes then and the proposal stays proposed.
     */
    async approve(operator: LoanSettingsOperator, id: number): Promise<LoanSettingChange> {
      return db.transaction(async (tx) => {
        await findChange(tx, id);
        await tx.select().from(loanSettings).where(eq(loanSettings.id, 1)).for('update');
        const [claimed] = await tx
          .update(loanSettingChanges)
          .set({ status: 'applied', decidedById: operator.id, decidedByEmail: operator.email, decidedAt: now() })
          .where(
            and(
              eq(loanSettingChanges.id, id),
              eq(loanSettingChanges.status, 'proposed'),
              ne(loanSettingChanges.proposedById, operator.id),
            ),
          )
          .returning();
        if (!claimed) {
          const existing = await findChange(tx, id);
          if (existing.status !== 'proposed')
            throw new DomainError('SETTING_CHANGE_STATE_CHANGED', {}, { status: existing.status });
          throw new DomainError('FOUR_EYES_REQUIRED');
        }
        const current = riskLevelsOf(await loadSettings(tx));
        if (!isSameLevels(current, claimed.before)) {
          const text = `${current.initialLtvPct}/${current.marginCallLtvPct}/${current.liquidationLtvPct} %, fee ${current.liquidationFeePct} %`;
          throw new DomainError('SETTING_CHANGE_STALE', { current: text });
        }
        await tx
          .update(loanSettings)
          .set({
            initialLtvBps: pctToBps(claimed.after.initialLtvPct),
            marginCallLtvBps: pctToBps(claimed.after.marginCallLtvPct),
            liquidationLtvBps: pctToBps(claimed.after.liquidationLtvPct),
            liquidationFeeBps: pctToBps(claimed.after.liquidationFeePct),
            updatedAt: now(),
          })
          .where(eq(loanSettings.id, 1));
        return toChange(claimed);
      });
    },

    /** Reject a proposal (any admin; nothing changes). @throws NOT_FOUND; SETTING_CHANGE_STATE_CHANGED (156). */
    async reject(operator: LoanSettingsOperator, id: number): Promise<LoanSettingChange> {
      const [rejected] = await db
        .update(loanSettingChanges)
        .set({ status: 'rejected', decidedById: operator.id, decidedByEmail: operator.email, decidedAt: now() })
        .where(and(eq(loanSettingChanges.id, id), eq(loanSettingChanges.status, 'proposed')))
        .returning();
      if (rejected) return toChange(rejected);
      const existing = await findChange(db, id);
      throw new DomainError('SETTING_CHANGE_STATE_CHANGED', {}, { status: existing.status });
    },
  };
}

export type LoanSettingsService = ReturnType<typeof createLoanSettings>;
