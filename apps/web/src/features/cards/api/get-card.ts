import { cardEndpoints } from '@meridian/contracts/cards';
import { useQuery } from '@tanstack/react-query';
import { callEndpoint, unwrap } from '../../../lib/api-client.ts';
import { cardKeys } from './card-keys.ts';

/** `GET card/:id` (`cardEndpoints.getCard`): one card with its limits, spend rules and pending limit request. */
export async function getCard(id: number, signal?: AbortSignal) {
  return unwrap(await callEndpoint(cardEndpoints.getCard, { params: { id } }, { signal }));
}

/** One card's detail; off until a card is chosen. */
export function useCard(id: number | null) {
  return useQuery({
    queryKey: cardKeys.detail(id ?? 0),
    enabled: id !== null,
    queryFn: ({ signal }) => getCard(id ?? 0, signal),
    retry: false,
  });
}
