import { type LoanRepayCalcQuery, loanEndpoints } from '@meridian/contracts/loans';
import { useQuery } from '@tanstack/react-query';
import { callEndpoint, unwrap } from '../../../lib/api-client.ts';
import { loanKeys } from './loan-keys.ts';

/**
 * `GET loan/repay/calc` (`loanEndpoints.repayCalc`): the exact split of a repayment made now
 * (interest first, then principal; the early-repayment charge; the BTC sold when paid with collateral).
 */
export async function getRepayCalc(query: LoanRepayCalcQuery, signal?: AbortSignal) {
  return unwrap(await callEndpoint(loanEndpoints.repayCalc, { query }, { signal, silent: true }));
}

/** The split of `query`, asked when the modal has a valid amount (null: idle). */
export function useRepayCalc(query: LoanRepayCalcQuery | null) {
  return useQuery({
    queryKey: loanKeys.repayCalc(query ?? { orderId: '0' }),
    enabled: query !== null,
    queryFn: ({ signal }) => getRepayCalc(query!, signal),
    retry: false,
    staleTime: 5_000,
  });
}
