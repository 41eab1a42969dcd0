import { fundEndpoints } from '@meridian/contracts/funds';
import { useQuery } from '@tanstack/react-query';
import { callEndpoint, unwrap } from '../../../lib/api-client.ts';
import { useUserId } from '../../../lib/session.ts';
import { fundKeys } from './fund-keys.ts';

/** `GET fund/v2/asset` (`fundEndpoints.asset`): the caller's fund totals. */
export async function getFundAsset(signal?: AbortSignal) {
  return unwrap(await callEndpoint(fundEndpoints.asset, {}, { signal }));
}

/** The signed-in user's fund totals. */
export function useFundAsset() {
  const userId = useUserId();
  return useQuery({
    queryKey: fundKeys.asset,
    enabled: userId !== null,
    queryFn: ({ signal }) => getFundAsset(signal),
    retry: false,
  });
}
