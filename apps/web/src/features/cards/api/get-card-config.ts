import { cardEndpoints } from '@meridian/contracts/cards';
import { useQuery } from '@tanstack/react-query';
import { callEndpoint, unwrap } from '../../../lib/api-client.ts';
import { useUserId } from '../../../lib/session.ts';
import { cardKeys } from './card-keys.ts';

/** `GET card/config` (`cardEndpoints.getConfig`): networks, currencies, top-up coins, fees, physical cards left. */
export async function getCardConfig(signal?: AbortSignal) {
  return unwrap(await callEndpoint(cardEndpoints.getConfig, {}, { signal }));
}

/** The apply form's configuration; off for guests. */
export function useCardConfig() {
  const userId = useUserId();
  return useQuery({
    queryKey: cardKeys.config,
    enabled: userId !== null,
    queryFn: ({ signal }) => getCardConfig(signal),
    retry: false,
  });
}
