import { identityEndpoints } from '@meridian/contracts/identity';
import { useQuery } from '@tanstack/react-query';
import { callEndpoint, unwrap } from '../../../lib/api-client.ts';
import { identityKeys } from '../../../lib/identity-keys.ts';

/** `GET user/signins` (`identityEndpoints.listSignIns`): recent sign-ins and failures. */
export async function getSignIns() {
  return unwrap(await callEndpoint(identityEndpoints.listSignIns, {}));
}

/** The recent sign-ins. */
export function useSignIns() {
  return useQuery({ queryKey: identityKeys.signIns, queryFn: getSignIns });
}
