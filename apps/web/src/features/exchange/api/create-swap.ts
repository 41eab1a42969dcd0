import { exchangeEndpoints, type SwapRecord } from '@meridian/contracts/exchange';
import { useMutation } from '@tanstack/react-query';
import { callEndpoint, unwrap } from '../../../lib/api-client.ts';
import { useInvalidateAfterSwap } from './exchange-keys.ts';

/**
 * `POST exchange/swap` (descriptor `exchangeEndpoints.swap`): executes a held quote. The page shows its own result
 * card (and the message centre a toast), so no generic success toast. A refusal throws `ApiError`
 * (131: the quote expired).
 */
export async function createSwap(quoteId: string): Promise<SwapRecord> {
  return unwrap(await callEndpoint(exchangeEndpoints.swap, { body: { quoteId } }, { quietSuccess: true }));
}

/** Execute a quote; a done swap refetches the balances and the history. */
export function useCreateSwap() {
  const invalidate = useInvalidateAfterSwap();
  return useMutation({ mutationFn: createSwap, onSuccess: invalidate });
}
