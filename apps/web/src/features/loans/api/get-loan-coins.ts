import { loanEndpoints } from '@meridian/contracts/loans';
import { useQuery } from '@tanstack/react-query';
import { callEndpoint, unwrap } from '../../../lib/api-client.ts';
import { loanKeys } from './loan-keys.ts';

/** `GET loan/coins` (`loanEndpoints.coins`): collateral coins and borrowable coins with their minimum. Public. */
export async function getLoanCoins(signal?: AbortSignal) {
  return unwrap(await callEndpoint(loanEndpoints.coins, {}, { signal }));
}

/** The collateral and loan coins (client state collateralCoins, loanCoins). */
export function useLoanCoins() {
  return useQuery({
    queryKey: loanKeys.coins,
    queryFn: ({ signal }) => getLoanCoins(signal),
    staleTime: 60_000,
  });
}
