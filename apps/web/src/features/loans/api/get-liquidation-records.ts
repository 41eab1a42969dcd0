import { type LoanLiquidationRecord, loanEndpoints } from '@meridian/contracts/loans';
import type { Page } from '@meridian/contracts/pagination';
import { callEndpoint, unwrap } from '../../../lib/api-client.ts';
import type { LoanPageFilters } from './loan-keys.ts';

/** `GET loan/liquidation/record` (`loanEndpoints.liquidationRecord`): one page of liquidation receipts (LoanLiquidationRecord). */
export async function getLoanLiquidationRecords(
  filters: LoanPageFilters,
  signal?: AbortSignal,
): Promise<Page<LoanLiquidationRecord>> {
  return unwrap(await callEndpoint(loanEndpoints.liquidationRecord, { query: filters }, { signal }));
}
