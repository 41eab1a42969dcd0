import { securityEndpoints } from '@meridian/contracts/identity';
import { useQuery } from '@tanstack/react-query';
import { callEndpoint, unwrap } from '../../../lib/api-client.ts';

/** `GET user/config/mfa/key` (`securityEndpoints.mfaKey`): a new authenticator secret with its QR code. */
export async function getMfaKey() {
  return unwrap(await callEndpoint(securityEndpoints.mfaKey, {}));
}

/** The authenticator secret to bind, fetched once while `enabled`. */
export function useMfaKey(enabled: boolean) {
  return useQuery({ queryKey: ['identity', 'mfa-key'], enabled, staleTime: Infinity, queryFn: getMfaKey });
}
