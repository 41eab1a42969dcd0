import { cardEndpoints } from '@meridian/contracts/cards';
import { useMutation } from '@tanstack/react-query';
import { callEndpoint, unwrap } from '../../../lib/api-client.ts';
import { useInvalidateCards } from './card-keys.ts';

/**
 * `POST card/confirmation/:id` (`cardEndpoints.confirmPayment`): approve or reject a payment waiting
 * for 3-D Secure or "ask me above X" (valid 5 minutes; later answers are refused with 217).
 */
export async function confirmPayment(id: number, isApproved: boolean) {
  return unwrap(await callEndpoint(cardEndpoints.confirmPayment, { params: { id }, body: { isApproved } }));
}

/** Answer a confirmation, then refetch the cards (the hold, the transaction's status). */
export function useConfirmPayment() {
  const invalidate = useInvalidateCards();
  return useMutation({
    mutationFn: ({ id, isApproved }: { id: number; isApproved: boolean }) => confirmPayment(id, isApproved),
    onSettled: invalidate,
  });
}
