import { exchangeEndpoints, type FlashExchangeRequest, type SwapRecord } from '@meridian/contracts/exchange';
import { useMutation } from '@tanstack/react-query';
import { callEndpoint, unwrap } from '../../../lib/api-client.ts';
import { useInvalidateAfterSwap } from './exchange-keys.ts';

/**
 * `POST exchange/flash` (descriptor `exchangeEndpoints.flash`): an exchange at the live rate within `maxSlippageBps` of
 * `expectedRate`; `requestId` makes a retry of one attempt exchange at most once. No generic
 * success toast (the page shows its result); a refusal throws `ApiError` after the client showed it.
 */
export async function createFlashExchange(request: FlashExchangeRequest): Promise<SwapRecord> {
  return unwrap(await callEndpoint(exchangeEndpoints.flash, { body: request }, { quietSuccess: true }));
}

/** Flash-exchange; a done exchange refetches the balances and the history. */
export function useCreateFlashExchange() {
  const invalidate = useInvalidateAfterSwap();
  return useMutation({ mutationFn: createFlashExchange, onSuccess: invalidate });
}
