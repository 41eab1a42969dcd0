import { type CardLimitRequestBody, cardEndpoints } from '@meridian/contracts/cards';
import { useMutation } from '@tanstack/react-query';
import { callEndpoint, unwrap } from '../../../lib/api-client.ts';
import { useInvalidateCards } from './card-keys.ts';

/**
 * `POST card/:id/limit-request` (`cardEndpoints.requestLimitChange`): a request to customer service.
 * Silent: the form shows refusals on its fields.
 */
export async function requestLimitChange(id: number, body: CardLimitRequestBody) {
  return unwrap(await callEndpoint(cardEndpoints.requestLimitChange, { params: { id }, body }, { silent: true }));
}

/** Send a limit-change request, then refetch the card (its pending request). */
export function useRequestLimitChange(id: number) {
  const invalidate = useInvalidateCards();
  return useMutation({
    mutationFn: (body: CardLimitRequestBody) => requestLimitChange(id, body),
    onSuccess: invalidate,
  });
}
