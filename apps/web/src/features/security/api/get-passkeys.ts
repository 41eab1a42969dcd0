import { passkeyEndpoints } from '@meridian/contracts/passkeys';
import { useQuery } from '@tanstack/react-query';
import { callEndpoint, unwrap } from '../../../lib/api-client.ts';
import { identityKeys } from '../../../lib/identity-keys.ts';

/** `GET user/passkeys` (`passkeyEndpoints.listPasskeys`): the user's passkeys, newest first. */
export async function getPasskeys() {
  return unwrap(await callEndpoint(passkeyEndpoints.listPasskeys, {}));
}

/** The registered passkeys. */
export function usePasskeys() {
  return useQuery({ queryKey: identityKeys.passkeys, queryFn: getPasskeys });
}
