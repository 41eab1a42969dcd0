import { cardEndpoints } from '@meridian/contracts/cards';
import { useQuery } from '@tanstack/react-query';
import { callEndpoint, unwrap } from '../../../lib/api-client.ts';
import { useUserId } from '../../../lib/session.ts';
import { cardKeys } from './card-keys.ts';

/** How often the card page asks for payments waiting for confirmation (a 3-D Secure push lives 5 minutes). */
export const CONFIRMATIONS_POLL_MS = 4_000;

/** `GET card/confirmations` (`cardEndpoints.listConfirmations`): payments waiting for the user's answer. */
export async function getCardConfirmations(signal?: AbortSignal) {
  return unwrap(await callEndpoint(cardEndpoints.listConfirmations, {}, { signal }));
}

/** The payments waiting for confirmation, polled while mounted; off for guests. */
export function useCardConfirmations() {
  const userId = useUserId();
  return useQuery({
    queryKey: cardKeys.confirmations,
    enabled: userId !== null,
    queryFn: ({ signal }) => getCardConfirmations(signal),
    refetchInterval: CONFIRMATIONS_POLL_MS,
    retry: false,
  });
}
