import { identityEndpoints } from '@meridian/contracts/identity';
import { useQuery } from '@tanstack/react-query';
import { callEndpoint, unwrap } from '../../../lib/api-client.ts';
import { identityKeys } from '../../../lib/identity-keys.ts';

/** `GET user/country/list` (spec §7, `identityEndpoints.listCountries`, silent): countries with their names and calling codes. */
export async function getCountries() {
  return unwrap(await callEndpoint(identityEndpoints.listCountries, {}, { silent: true }));
}

/** The country list (never stale within a visit). */
export function useCountries() {
  return useQuery({ queryKey: identityKeys.countries, staleTime: Infinity, queryFn: getCountries });
}
