import { createTrustAccounts } from './trust.accounts.ts';
import { createTrustInactivity } from './trust.inactivity.ts';
import type { TrustServiceDeps } from './trust.internal.ts';
import { createTrustOperators } from './trust.operators.ts';

export type { FactorCheck, TrustServiceDeps } from './trust.internal.ts';
export {
  INACTIVITY_BATCH_ROWS,
  dueInactivityStage,
  inactivityDeadline,
  INACTIVITY_REMINDER_DAYS,
  type TrustInactivityDates,
} from './trust.inactivity.ts';

/**
 * BTC trusts (trust, "Trust entrustment fee 2% one-time"). Business rules and
 * transactions; no HTTP objects. Every balance change is one ledger entry (docs/trust.md):
 * entrust = wallet → trust holding (net) + PLATFORM_FEES (fee); withdraw = trust holding → wallet;
 * release = trust holding → TRUST_PAYOUTS.
 * One object made of the module's parts: `trust.accounts.ts` (the settlor's calls),
 * `trust.inactivity.ts` (the inactivity switch) and `trust.operators.ts` (the back office);
 * other modules, CLIs and tests import this file only.
 */
export function createTrustService(deps: TrustServiceDeps) {
  return {
    ...createTrustAccounts(deps),
    ...createTrustInactivity(deps),
    ...createTrustOperators(deps),
  };
}

/** The trust service's type. */
export type TrustService = ReturnType<typeof createTrustService>;
