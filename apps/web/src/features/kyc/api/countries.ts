import { identityEndpoints } from '@meridian/contracts/identity';
import { useQuery } from '@tanstack/react-query';
import { callEndpoint, unwrap } from '../../../lib/api-client.ts';
import { kycKeys } from './basic-kyc.ts';

/** `GET user/country/list` (`identityEndpoints.listCountries`): the countries the server accepts for nationality and residence, named in both languages. */
export function useCountries() {
  return useQuery({
    queryKey: kycKeys.countries,
    staleTime: Infinity,
    queryFn: async () => unwrap(await callEndpoint(identityEndpoints.listCountries, {}, { silent: true })),
  });
}
