import { corporateEndpoints } from '@meridian/contracts/corporate';
import { useQuery } from '@tanstack/react-query';
import { callEndpoint, unwrap } from '../../../lib/api-client.ts';
import { useUserId } from '../../../lib/session.ts';
import { cardKeys } from './card-keys.ts';

/** `GET corporate/pro` (`corporateEndpoints.getProAccount`): approved or not, the newest application, the prefill. */
export async function getProAccount(signal?: AbortSignal) {
  return unwrap(await callEndpoint(corporateEndpoints.getProAccount, {}, { signal }));
}

/** The signed-in user's PRO account; off for guests. */
export function useProAccount() {
  const userId = useUserId();
  return useQuery({
    queryKey: cardKeys.pro,
    enabled: userId !== null,
    queryFn: ({ signal }) => getProAccount(signal),
    retry: false,
  });
}
