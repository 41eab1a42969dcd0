import { loanEndpoints } from '@meridian/contracts/loans';
import { useQuery } from '@tanstack/react-query';
import { callEndpoint, unwrap } from '../../../lib/api-client.ts';
import { useUserId } from '../../../lib/session.ts';
import { loanKeys } from './loan-keys.ts';

/** `GET loan/asset` (`loanEndpoints.asset`): totals of the caller's current loans. Needs level 2 (143 below). */
export async function getLoanAsset(signal?: AbortSignal) {
  return unwrap(await callEndpoint(loanEndpoints.asset, {}, { signal }));
}

/** The signed-in user's loan totals; its 143 refusal tells the page the user is below level 2. */
export function useLoanAsset() {
  const userId = useUserId();
  return useQuery({
    queryKey: loanKeys.asset,
    enabled: userId !== null,
    queryFn: ({ signal }) => getLoanAsset(signal),
    retry: false,
  });
}
