import { type LoanRepayRecord, loanEndpoints } from '@meridian/contracts/loans';
import type { Page } from '@meridian/contracts/pagination';
import { callEndpoint, unwrap } from '../../../lib/api-client.ts';
import type { LoanPageFilters } from './loan-keys.ts';

/** `GET loan/repay/record` (`loanEndpoints.repayRecord`): one page of repayments (LoanRepayRecord). */
export async function getLoanRepayRecords(
  filters: LoanPageFilters,
  signal?: AbortSignal,
): Promise<Page<LoanRepayRecord>> {
  return unwrap(await callEndpoint(loanEndpoints.repayRecord, { query: filters }, { signal }));
}
