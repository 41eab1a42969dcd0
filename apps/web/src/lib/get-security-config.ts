import { type SecurityConfig, securityEndpoints } from '@meridian/contracts/identity';
import { useQuery } from '@tanstack/react-query';
import { type ApiResponse, callEndpoint, unwrap } from './api-client.ts';
import { identityKeys } from './identity-keys.ts';
import { useUserId } from './session.ts';

/** `GET user/config` (descriptor `securityEndpoints.config`): the user's security configuration, as an envelope. */
export function getSecurityConfig(): Promise<ApiResponse<SecurityConfig>> {
  return callEndpoint(securityEndpoints.config, {});
}

/** The security configuration, fetched when `enabled` and a user id is stored; a failure throws `ApiError`. */
export function useSecurityConfig(enabled = true) {
  const userId = useUserId();
  return useQuery({
    queryKey: identityKeys.config,
    enabled: enabled && userId !== null,
    queryFn: async () => unwrap(await getSecurityConfig()),
  });
}
