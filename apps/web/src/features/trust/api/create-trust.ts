import { type CreateTrustBody, trustEndpoints } from '@meridian/contracts/trust';
import { useMutation } from '@tanstack/react-query';
import { callEndpoint, unwrap } from '../../../lib/api-client.ts';
import { useInvalidateTrusts } from './trust-keys.ts';

/**
 * `POST trust/create` (`trustEndpoints.createTrust`). Silent: the form shows refusals on their
 * fields (shares that do not sum to 100 % on the beneficiaries' total).
 */
export async function createTrust(body: CreateTrustBody) {
  return unwrap(await callEndpoint(trustEndpoints.createTrust, { body }, { silent: true }));
}

/** Create a trust, then refetch the list. */
export function useCreateTrust() {
  const invalidate = useInvalidateTrusts();
  return useMutation({ mutationFn: createTrust, onSuccess: invalidate });
}
