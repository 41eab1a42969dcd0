import { type CardTopUpQuoteBody, cardEndpoints } from '@meridian/contracts/cards';
import { useMutation } from '@tanstack/react-query';
import { callEndpoint, unwrap } from '../../../lib/api-client.ts';

/**
 * `POST card/:id/topup/quote` (`cardEndpoints.quoteTopUp`): a locked rate for 30 s. Silent: the
 * modal shows the refusal (coin off its peg, amount) on the form.
 */
export async function quoteTopUp(id: number, body: CardTopUpQuoteBody) {
  return unwrap(await callEndpoint(cardEndpoints.quoteTopUp, { params: { id }, body }, { silent: true }));
}

/** Ask a top-up quote; the caller keeps it and counts it down. */
export function useQuoteTopUp(id: number) {
  return useMutation({ mutationFn: (body: CardTopUpQuoteBody) => quoteTopUp(id, body) });
}
