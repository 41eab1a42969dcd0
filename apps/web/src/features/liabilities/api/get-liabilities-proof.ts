import { liabilitiesEndpoints } from '@meridian/contracts/liabilities';
import { useMutation } from '@tanstack/react-query';
import { callEndpoint, unwrap } from '../../../lib/api-client.ts';

/**
 * `GET liabilities/proof` (`liabilitiesEndpoints.getProof`): the signed-in user's inclusion proof in
 * the snapshot of `date` (default the latest). Refusals (240, 241) are shown by the page, so silent.
 */
export async function getLiabilitiesProof(date?: string) {
  return unwrap(await callEndpoint(liabilitiesEndpoints.getProof, { query: date ? { date } : {} }, { silent: true }));
}

/** Fetch the proof on demand (the download button). */
export function useLiabilitiesProof() {
  return useMutation({ mutationFn: (date?: string) => getLiabilitiesProof(date) });
}
