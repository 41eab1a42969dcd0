import { type LoanCalcQuery, loanEndpoints } from '@meridian/contracts/loans';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { callEndpoint, unwrap } from '../../../lib/api-client.ts';
import { loanKeys } from './loan-keys.ts';

/**
 * `GET loan/calc` (`loanEndpoints.calc`): the loan that would be made now — the largest
 * principal for a collateral, or the collateral a principal needs — with interest, LTV and the
 * margin-call and liquidation prices. Public (guests see the calculator).
 */
export async function getLoanCalc(query: LoanCalcQuery, signal?: AbortSignal) {
  return unwrap(await callEndpoint(loanEndpoints.calc, { query }, { signal, silent: true }));
}

/** The calculator's answer for `query`; null keeps it idle (no amount yet). The last answer stays shown while the next loads. */
export function useLoanCalc(query: LoanCalcQuery | null) {
  return useQuery({
    queryKey: loanKeys.calc(query ?? { loanCoin: 'USDT', termDays: 30 }),
    enabled: query !== null,
    queryFn: ({ signal }) => getLoanCalc(query!, signal),
    placeholderData: keepPreviousData,
    retry: false,
    staleTime: 10_000,
  });
}
