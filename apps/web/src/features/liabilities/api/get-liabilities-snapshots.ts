import { liabilitiesEndpoints } from '@meridian/contracts/liabilities';
import { useQuery } from '@tanstack/react-query';
import { callEndpoint, unwrap } from '../../../lib/api-client.ts';

/** `GET liabilities/snapshots` (`liabilitiesEndpoints.getSnapshots`): the latest root, totals and history (public). */
export async function getLiabilitiesSnapshots() {
  return unwrap(await callEndpoint(liabilitiesEndpoints.getSnapshots, {}));
}

/** The published snapshots; for guests and users alike. */
export function useLiabilitiesSnapshots() {
  return useQuery({ queryKey: ['liabilities', 'snapshots'], queryFn: getLiabilitiesSnapshots });
}
