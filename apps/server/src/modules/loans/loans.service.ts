import { addDays, daysBetween, overdueInterest } from './loans.rules.ts';
import type { LoansContext } from './loans.context.ts';
import { createDefaultsService } from './loans.defaults.ts';
import { createLoanEngine } from './loans.engine.ts';
import type { LoansDeps } from './loans.internal.ts';
import { createJobsService } from './loans.jobs.ts';
import { createOrdersService } from './loans.orders.ts';
import { createProtectionsService } from './loans.protections.ts';
import { createQueriesService } from './loans.queries.ts';

export type { FactorCheck, LoanPrice } from './loans.internal.ts';
export { LOAN_DEFAULTS } from './loans.defaults.ts';
export type { LoanCalendarDates } from './loans.queries.ts';

/**
 * Loans (`loan/*`). Borrow a stablecoin against BTC, repay
 * (interest first; early repayment charge), adjust collateral, protection rules, and the engine's
 * jobs (overdue, liquidation, margin-call alerts; `loans.engine.ts`). Every balance change is one
 * ledger entry posted in the transaction that writes its record (docs/loans.md).
 * One object made of the module's parts over one shared context (`LoansContext`):
 * `loans.queries.ts` (reads), `loans.orders.ts` (borrow, repay, adjust; repayments themselves in
 * `loans.repayments.ts`), `loans.protections.ts` (protection rules), `loans.jobs.ts` (the engine's
 * runs) and `loans.defaults.ts` (seeding and direct edits of the rules' rows); other modules, CLIs
 * and tests import this file only.
 */
export function createLoansService(deps: LoansDeps) {
  const ctx: LoansContext = { ...deps, engine: createLoanEngine(deps) };
  const { runProtections, ...protections } = createProtectionsService(ctx);
  return {
    engine: ctx.engine,
    ...createJobsService(ctx, runProtections),
    ...createDefaultsService(ctx),
    ...createQueriesService(ctx),
    ...createOrdersService(ctx),
    ...protections,
  };
}

/** The loans service (what other modules, CLIs and tests call). */
export type LoansService = ReturnType<typeof createLoansService>;

// Re-exported for tests and the replay CLI.
export { addDays, daysBetween, overdueInterest };
