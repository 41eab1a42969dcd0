import { loanEndpoints } from '@meridian/contracts/loans';
import { useQuery } from '@tanstack/react-query';
import { callEndpoint, unwrap } from '../../../lib/api-client.ts';
import { loanKeys } from './loan-keys.ts';

/** `GET loan/config` (`loanEndpoints.config`): terms with their rates, LTV levels, maximum, fees. Public. */
export async function getLoanConfig(signal?: AbortSignal) {
  return unwrap(await callEndpoint(loanEndpoints.config, {}, { signal }));
}

/** The loan rules; they change rarely, so they stay fresh for a minute. */
export function useLoanConfig() {
  return useQuery({
    queryKey: loanKeys.config,
    queryFn: ({ signal }) => getLoanConfig(signal),
    staleTime: 60_000,
  });
}
