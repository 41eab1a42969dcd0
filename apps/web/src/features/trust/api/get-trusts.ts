import { trustEndpoints } from '@meridian/contracts/trust';
import { useQuery } from '@tanstack/react-query';
import { callEndpoint, unwrap } from '../../../lib/api-client.ts';
import { useUserId } from '../../../lib/session.ts';
import { trustKeys } from './trust-keys.ts';

/** `GET trust/list` (`trustEndpoints.listTrusts`): the signed-in user's trusts with their holdings (level 2). */
export async function getTrusts() {
  return unwrap(await callEndpoint(trustEndpoints.listTrusts, {}));
}

/** The user's trusts; off for guests. A 143 answer (below level 2) is the page's gate, not retried. */
export function useTrusts() {
  const userId = useUserId();
  return useQuery({ queryKey: trustKeys.list, enabled: userId !== null, queryFn: getTrusts, retry: false });
}
