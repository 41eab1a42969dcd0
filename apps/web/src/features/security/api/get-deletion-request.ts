import { supportEndpoints } from '@meridian/contracts/support';
import { useQuery } from '@tanstack/react-query';
import { callEndpoint, unwrap } from '../../../lib/api-client.ts';

/** Query key of the user's account-deletion request. */
export const deletionRequestKey = ['support', 'deletion'] as const;

/** `GET support/deletion` (`supportEndpoints.deletionState`): the latest deletion request, or null. */
export async function getDeletionRequest() {
  return unwrap(await callEndpoint(supportEndpoints.deletionState, {}));
}

/** The user's latest account-deletion request with its status and customer service's reply. */
export function useDeletionRequest() {
  return useQuery({ queryKey: deletionRequestKey, queryFn: getDeletionRequest });
}
