import { type LoanAdjustCalcQuery, loanEndpoints } from '@meridian/contracts/loans';
import { useQuery } from '@tanstack/react-query';
import { callEndpoint, unwrap } from '../../../lib/api-client.ts';
import { loanKeys } from './loan-keys.ts';

/**
 * `GET loan/adjust/calc` (`loanEndpoints.adjustCalc`): the collateral, LTV and liquidation
 * price after adding or removing BTC, and the most that can be removed now.
 */
export async function getAdjustCalc(query: LoanAdjustCalcQuery, signal?: AbortSignal) {
  return unwrap(await callEndpoint(loanEndpoints.adjustCalc, { query }, { signal, silent: true }));
}

/** The change of `query`, asked when the modal has a valid amount (null: idle). */
export function useAdjustCalc(query: LoanAdjustCalcQuery | null) {
  return useQuery({
    queryKey: loanKeys.adjustCalc(query ?? { orderId: '0', direction: 'ADD', amount: '0' }),
    enabled: query !== null,
    queryFn: ({ signal }) => getAdjustCalc(query!, signal),
    retry: false,
    staleTime: 5_000,
  });
}
