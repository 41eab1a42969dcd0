import { identityEndpoints } from '@meridian/contracts/identity';
import type { KycLevel } from '@meridian/contracts/kyc';
import { useQuery } from '@tanstack/react-query';
import { callEndpoint, unwrap } from '../../../lib/api-client.ts';
import { identityKeys } from '../../../lib/identity-keys.ts';

/**
 * The user's verification level as the server's gates read it (`user/self` `kycLevel`; the one
 * source, docs/decisions/0011-verification-level.md): the identity pages show it and open a step
 * only when it is reached, never a level of their own making. Refetched whenever a page using it
 * mounts (a reviewer's decision may have changed it meanwhile). `level` is undefined while loading.
 */
export function useKycLevel(): { level: KycLevel | undefined; isPending: boolean } {
  const self = useQuery({
    queryKey: identityKeys.self,
    staleTime: 0,
    queryFn: async () => unwrap(await callEndpoint(identityEndpoints.self, {}, { skipLoginRedirect: true })),
  });
  const level = self.data?.kycLevel;
  return {
    level: level === undefined ? undefined : (Math.min(Math.max(level, 0), 3) as KycLevel),
    isPending: self.isPending,
  };
}
