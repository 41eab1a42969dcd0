import type { LoanEngine } from './loans.engine.ts';
import type { LoansDeps } from './loans.internal.ts';

/**
 * What every part of the loans service shares (imported only inside the module): the module's
 * dependencies and the one loan engine (overdue accrual, collateral moves, cures, liquidation).
 */
export interface LoansContext extends LoansDeps {
  engine: LoanEngine;
}
