import { identityEndpoints, type SelfContent } from '@meridian/contracts/identity';
import { useQuery } from '@tanstack/react-query';
import { type ApiResponse, callEndpoint, unwrap } from './api-client.ts';
import { identityKeys } from './identity-keys.ts';
import { useUserId } from './session.ts';

/**
 * `GET user/self` (descriptor `identityEndpoints.self`): the signed-in user. A 101 does not
 * open the login modal (the call also runs on public pages). Resolves to the envelope.
 */
export function getSelf(): Promise<ApiResponse<SelfContent>> {
  return callEndpoint(identityEndpoints.self, {}, { skipLoginRedirect: true });
}

/** The signed-in user, only fetched when a user id is stored; a failure throws `ApiError`. */
export function useSelf() {
  const userId = useUserId();
  return useQuery({
    queryKey: identityKeys.self,
    enabled: userId !== null,
    queryFn: async () => unwrap(await getSelf()),
  });
}
