import { identityEndpoints } from '@meridian/contracts/identity';
import { useQuery } from '@tanstack/react-query';
import { callEndpoint, unwrap } from '../../../lib/api-client.ts';
import { identityKeys } from '../../../lib/identity-keys.ts';

/** `GET user/country/list` (spec §7, `identityEndpoints.listCountries`, silent): the countries with their English and Chinese names. */
export async function getCountries() {
  return unwrap(await callEndpoint(identityEndpoints.listCountries, {}, { silent: true }));
}

/** The country list (never stale within a visit; the same cache entry as the security pages'). */
export function useCountries() {
  return useQuery({ queryKey: identityKeys.countries, staleTime: Infinity, queryFn: getCountries });
}
