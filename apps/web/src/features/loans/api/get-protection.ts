import { loanEndpoints } from '@meridian/contracts/loans';
import { useQuery } from '@tanstack/react-query';
import { callEndpoint, unwrap } from '../../../lib/api-client.ts';
import { loanKeys } from './loan-keys.ts';

/** `GET loan/protection` (`loanEndpoints.protection`): a loan's protection rule, null when none was set. */
export async function getProtection(orderId: string, signal?: AbortSignal) {
  return unwrap(await callEndpoint(loanEndpoints.protection, { query: { orderId } }, { signal }));
}

/** The rule of one loan, for its modal. */
export function useProtection(orderId: string) {
  return useQuery({
    queryKey: loanKeys.protection(orderId),
    queryFn: ({ signal }) => getProtection(orderId, signal),
    retry: false,
  });
}
