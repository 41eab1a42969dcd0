import type { Country } from '@meridian/contracts/identity';
import { useQuery } from '@tanstack/react-query';
import { apiClient, unwrap } from '../../../lib/api-client.ts';
import { kycKeys } from './basic-kyc.ts';

/** `GET user/country/list`: the countries the server accepts for nationality and residence, named in both languages. */
export function useCountries() {
  return useQuery({
    queryKey: kycKeys.countries,
    staleTime: Infinity,
    queryFn: async () => unwrap(await apiClient.get<Country[]>('user/country/list', { silent: true })),
  });
}
