import { cardEndpoints } from '@meridian/contracts/cards';
import { useQuery } from '@tanstack/react-query';
import { callEndpoint, unwrap } from '../../../lib/api-client.ts';
import { useUserId } from '../../../lib/session.ts';
import { cardKeys } from './card-keys.ts';

/** `GET card/list` (`cardEndpoints.listCards`): the caller's cards, masked (first 4, last 4), with balances. */
export async function getCards(signal?: AbortSignal) {
  return unwrap(await callEndpoint(cardEndpoints.listCards, {}, { signal }));
}

/** The signed-in user's cards; off for guests. */
export function useCards() {
  const userId = useUserId();
  return useQuery({
    queryKey: cardKeys.list,
    enabled: userId !== null,
    queryFn: ({ signal }) => getCards(signal),
    retry: false,
  });
}
