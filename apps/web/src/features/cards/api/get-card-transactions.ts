import { cardEndpoints } from '@meridian/contracts/cards';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { callEndpoint, unwrap } from '../../../lib/api-client.ts';
import { cardKeys } from './card-keys.ts';

/** Rows per page of a card's transactions (spec §9: 10). */
export const CARD_TRANSACTIONS_PAGE_SIZE = 10;

/** `GET card/:id/transactions` (`cardEndpoints.listTransactions`): a page, newest first, with decline reasons. */
export async function getCardTransactions(id: number, pageID: number, signal?: AbortSignal) {
  return unwrap(
    await callEndpoint(
      cardEndpoints.listTransactions,
      { params: { id }, query: { pageID, pageSize: CARD_TRANSACTIONS_PAGE_SIZE } },
      { signal },
    ),
  );
}

/**
 * A page of one card's transactions; the previous page stays shown while the next loads. Refetched
 * every `refetchIntervalMs` while the page is open, so a merchant's payment appears without a reload.
 */
export function useCardTransactions(id: number, pageID: number, refetchIntervalMs: number) {
  return useQuery({
    queryKey: cardKeys.transactions(id, pageID),
    queryFn: ({ signal }) => getCardTransactions(id, pageID, signal),
    placeholderData: keepPreviousData,
    refetchInterval: refetchIntervalMs,
    retry: false,
  });
}
