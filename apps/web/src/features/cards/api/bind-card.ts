import { type BindCardBody, cardEndpoints } from '@meridian/contracts/cards';
import { useMutation } from '@tanstack/react-query';
import { callEndpoint, unwrap } from '../../../lib/api-client.ts';
import { useInvalidateCards } from './card-keys.ts';

/** `POST card/bind` (`cardEndpoints.bindCard`). Silent: the form shows the refusal on its fields. */
export async function bindCard(body: BindCardBody) {
  return unwrap(await callEndpoint(cardEndpoints.bindCard, { body }, { silent: true }));
}

/** Bind a pre-activated physical card, then refetch the cards. */
export function useBindCard() {
  const invalidate = useInvalidateCards();
  return useMutation({ mutationFn: bindCard, onSuccess: invalidate });
}
