import { identityEndpoints } from '@meridian/contracts/identity';
import { useQuery } from '@tanstack/react-query';
import { callEndpoint, unwrap } from './api-client.ts';
import { identityKeys } from './identity-keys.ts';

/**
 * `GET user/country/list` (`identityEndpoints.listCountries`, silent): the countries the server
 * accepts (nationality, residence, bank country, mobile calling codes), named in both languages.
 */
export async function getCountries() {
  return unwrap(await callEndpoint(identityEndpoints.listCountries, {}, { silent: true }));
}

/** The country list, one cache entry for every feature (never stale within a visit). */
export function useCountries() {
  return useQuery({ queryKey: identityKeys.countries, staleTime: Infinity, queryFn: getCountries });
}
