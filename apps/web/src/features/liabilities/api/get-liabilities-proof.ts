import { liabilitiesEndpoints } from '@meridian/contracts/liabilities';
import { useQuery } from '@tanstack/react-query';
import { callEndpoint, unwrap } from '../../../lib/api-client.ts';

/**
 * `GET liabilities/proof` (`liabilitiesEndpoints.getProof`): the signed-in user's inclusion proof in
 * the snapshot of `date` (default the latest). Refusals (240, 241) are shown by the page, so silent.
 */
export async function getLiabilitiesProof(date?: string) {
  return unwrap(await callEndpoint(liabilitiesEndpoints.getProof, { query: date ? { date } : {} }, { silent: true }));
}

/**
 * The signed-in user's proof in the snapshot of `date` (none: the latest), fetched when the page
 * opens so that it is verified at once. A refusal is an answer, not a failure to retry.
 */
export function useLiabilitiesProof(date: string | undefined) {
  return useQuery({
    queryKey: ['liabilities', 'proof', date ?? 'latest'],
    queryFn: () => getLiabilitiesProof(date),
    retry: false,
  });
}
