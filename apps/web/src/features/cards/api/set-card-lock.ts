import { cardEndpoints } from '@meridian/contracts/cards';
import { useMutation } from '@tanstack/react-query';
import { callEndpoint, unwrap } from '../../../lib/api-client.ts';
import { useInvalidateCards } from './card-keys.ts';

/** `POST card/:id/lock` (`cardEndpoints.setLock`): lock or unlock at once. */
export async function setCardLock(id: number, isLocked: boolean) {
  return unwrap(await callEndpoint(cardEndpoints.setLock, { params: { id }, body: { isLocked } }));
}

/** Lock or unlock a card, then refetch the cards. */
export function useSetCardLock() {
  const invalidate = useInvalidateCards();
  return useMutation({
    mutationFn: ({ id, isLocked }: { id: number; isLocked: boolean }) => setCardLock(id, isLocked),
    onSettled: invalidate,
  });
}
