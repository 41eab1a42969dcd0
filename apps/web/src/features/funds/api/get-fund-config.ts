import { fundEndpoints } from '@meridian/contracts/funds';
import { useQuery } from '@tanstack/react-query';
import { callEndpoint, unwrap } from '../../../lib/api-client.ts';
import { useUserId } from '../../../lib/session.ts';
import { fundKeys } from './fund-keys.ts';

/** `GET fund/v2/config` (`fundEndpoints.config`): subscribe options, coins at par, the receiving account, wire times. */
export async function getFundConfig(signal?: AbortSignal) {
  return unwrap(await callEndpoint(fundEndpoints.config, {}, { signal, skipLoginRedirect: true }));
}

/** The fund configuration; off for guests. */
export function useFundConfig() {
  const userId = useUserId();
  return useQuery({
    queryKey: fundKeys.config,
    enabled: userId !== null,
    queryFn: ({ signal }) => getFundConfig(signal),
    retry: false,
  });
}
