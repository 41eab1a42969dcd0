import { LOAN_STATUS } from '@meridian/contracts/loans';
import { and, asc, inArray, sql } from 'drizzle-orm';
import { hongKongDay } from '../../platform/calendar/business-calendar.ts';
import type { Tx } from '../../platform/db/client.ts';
import {
  ENGINE_BATCH_ROWS,
  ENGINE_BATCHES_MAX,
  loadSettings,
  type LoanPrice,
  type LoansDeps,
  type SettingsRow,
} from './loans.internal.ts';
import { daysBetween, priceText } from './loans.rules.ts';
import { loanEngineAlarms, loans } from './loans.tables.ts';
import { createLoanPositions } from './loans.positions.ts';
import { createLiquidation } from './loans.liquidation.ts';
import { createAlerts } from './loans.alerts.ts';

export { ENGINE_BATCH_ROWS, ENGINE_BATCHES_MAX } from './loans.internal.ts';
/** A price older than this is stale: no liquidation, an alarm (the aggregator's own limit is 30 s). */
export const ENGINE_PRICE_MAX_AGE_MS = 60_000;

/** A price the engine may act on, or why it may not. */
export type EnginePrice = { price: LoanPrice } | { error: string };

/** What one price event did (tests, the replay CLI and the bench print it). */
export interface PriceEventReport {
  event: string | null;
  alarm: string | null;
  protections: number;
  partial: number;
  full: number;
  alerts: number;
  rearmed: number;
}

/**
 * The loan engine: overdue accrual and overdue liquidation, price liquidation in bounded
 * batches over the partial index of open loans' liquidation prices, and margin-call alerts. Every
 * action is one ledger entry in the job's transaction; the scheduler's advisory lock makes one
 * process (the leader) act, and the receipt's unique (loan, price event) makes each loan liquidated
 * at most once per price event, whatever restarts happen.
 *
 * The parts: `loans.positions.ts` (overdue accrual, cures, collateral moves),
 * `loans.liquidation.ts` (liquidation) and `loans.alerts.ts` (margin-call alerts); this file
 * schedules them on each price event and each overdue run.
 */
export function createLoanEngine(deps: LoansDeps) {
  async function alarm(tx: Tx, reason: string, detail: Record<string, unknown>): Promise<void> {
    deps.log.error({ reason, ...detail }, 'loans engine alarm: no liquidation');
    await tx.insert(loanEngineAlarms).values({ reason, detail });
  }
  const positions = createLoanPositions(deps);
  const { accrueOverdue } = positions;
  const { liquidate, liquidateCandidates } = createLiquidation(deps);
  const { runAlerts } = createAlerts(deps);

  /** The name of a price event: the observation instant and the price (each loan acts once per event). */
  function eventOf(price: LoanPrice): string {
    return `${price.observedAt.toISOString()}@${priceText(price.priceUsd)}`;
  }

  /** A price the engine may act on, or the alarm reason (refused by the pipeline, or stale). */
  function checkPrice(prepared: EnginePrice, now: Date): { price: LoanPrice } | { reason: string; detail: object } {
    if ('error' in prepared) return { reason: 'PRICE_UNAVAILABLE', detail: { error: prepared.error } };
    const ageMs = now.getTime() - prepared.price.observedAt.getTime();
    if (ageMs > ENGINE_PRICE_MAX_AGE_MS)
      return { reason: 'PRICE_STALE', detail: { observedAt: prepared.price.observedAt.toISOString(), ageMs } };
    return prepared;
  }

  return {
    ...positions,
    liquidate,
    liquidateCandidates,
    eventOf,

    /** The job's `prepare`: the BTC median price, or why there is none (never throws). */
    async preparePrice(): Promise<EnginePrice> {
      try {
        return { price: await deps.btcPrice() };
      } catch (error) {
        return { error: error instanceof Error ? error.message : String(error) };
      }
    },

    /**
     * One price event (the `loans.engine` job, leader only): protection rules first (`protect`,
     * given by the service), then alerts (every level crossed, before any liquidation of the same
     * event), then liquidation of the loans whose cure window is over or that reached the hard
     * level. A refused or stale price → nothing is liquidated, an alarm is logged and stored.
     */
    async runPriceEvent(
      tx: Tx,
      prepared: EnginePrice,
      now: Date,
      protect: (tx: Tx, settings: SettingsRow, price: LoanPrice, event: string) => Promise<number>,
    ): Promise<PriceEventReport> {
      const checked = checkPrice(prepared, now);
      const report: PriceEventReport = {
        event: null,
        alarm: null,
        protections: 0,
        partial: 0,
        full: 0,
        alerts: 0,
        rearmed: 0,
      };
      if (!('price' in checked)) {
        await alarm(tx, checked.reason, checked.detail as Record<string, unknown>);
        return { ...report, alarm: checked.reason };
      }
      const settings = await loadSettings(tx);
      const event = eventOf(checked.price);
      report.event = event;
      report.protections = await protect(tx, settings, checked.price, event);
      const alerts = await runAlerts(tx, settings, checked.price, now);
      const counts = await liquidateCandidates(tx, settings, checked.price, event, now);
      return { ...report, ...counts, ...alerts };
    },

    /**
     * The overdue job (hourly, leader only): open loans past their repayment date (index
     * `loans_due_open_idx`) get overdue interest accrued and go 3 → 4 (with a message); those past
     * the grace (3 natural days) are liquidated in full → 9 at the current price (none without a
     * valid price: alarm). Bounded per run.
     */
    async runOverdue(tx: Tx, prepared: EnginePrice, now: Date): Promise<{ overdue: number; liquidated: number }> {
      const settings = await loadSettings(tx);
      const today = hongKongDay(now);
      const rows = await tx
        .select()
        .from(loans)
        .where(
          and(
            inArray(loans.status, [LOAN_STATUS.REPAYABLE, LOAN_STATUS.OVERDUE]),
            sql`${loans.repaymentDate} < ${today}`,
          ),
        )
        .orderBy(asc(loans.repaymentDate))
        .limit(ENGINE_BATCH_ROWS * ENGINE_BATCHES_MAX)
        .for('update', { skipLocked: true });
      const checked = checkPrice(prepared, now);
      let overdue = 0;
      let liquidated = 0;
      let isAlarmed = false;
      for (const row of rows) {
        const loan = await accrueOverdue(tx, row, settings, today);
        if (row.status !== loan.status) overdue += 1;
        if (daysBetween(loan.repaymentDate, today) <= settings.overdueGraceDays) continue;
        if (!('price' in checked)) {
          if (!isAlarmed) await alarm(tx, checked.reason, { ...checked.detail, job: 'overdue' });
          isAlarmed = true;
          continue;
        }
        await liquidate(tx, loan, settings, checked.price, `overdue:${today}`, true);
        liquidated += 1;
      }
      return { overdue, liquidated };
    },
  };
}

export type LoanEngine = ReturnType<typeof createLoanEngine>;
