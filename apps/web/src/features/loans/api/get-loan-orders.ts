import { type LoanOrder, loanEndpoints } from '@meridian/contracts/loans';
import type { Page } from '@meridian/contracts/pagination';
import { callEndpoint, unwrap } from '../../../lib/api-client.ts';
import type { LoanPageFilters } from './loan-keys.ts';

/** `GET loan/order/list` (`loanEndpoints.orderList`): one page of the caller's loans, newest first (LoanOrder). */
export async function getLoanOrders(filters: LoanPageFilters, signal?: AbortSignal): Promise<Page<LoanOrder>> {
  return unwrap(await callEndpoint(loanEndpoints.orderList, { query: filters }, { signal }));
}
