import { type LoanAdjustRecord, loanEndpoints } from '@meridian/contracts/loans';
import type { Page } from '@meridian/contracts/pagination';
import { callEndpoint, unwrap } from '../../../lib/api-client.ts';
import type { LoanPageFilters } from './loan-keys.ts';

/** `GET loan/adjust/record` (`loanEndpoints.adjustRecord`): one page of collateral adjustments (LoanAdjustRecord). */
export async function getLoanAdjustRecords(
  filters: LoanPageFilters,
  signal?: AbortSignal,
): Promise<Page<LoanAdjustRecord>> {
  return unwrap(await callEndpoint(loanEndpoints.adjustRecord, { query: filters }, { signal }));
}
