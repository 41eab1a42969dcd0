import { cardEndpoints, type CardTransaction } from '@meridian/contracts/cards';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { callEndpoint, unwrap } from '../../../lib/api-client.ts';
import { walletBalanceKey } from '../../../lib/get-wallet-balance.ts';
import { cardKeys } from './card-keys.ts';

/** Rows per page of a card's transactions (10). */
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
 * What of a page of transactions moves the card's balance: each row's id, status and amount. Two
 * pages with the same signature leave Available and Held where they were.
 */
export function transactionsSignature(list: readonly Pick<CardTransaction, 'id' | 'status' | 'amount'>[]): string {
  return list.map((row) => `${row.id}:${row.status}:${row.amount}`).join('|');
}

/**
 * A page of one card's transactions; the previous page stays shown while the next loads. Refetched
 * every `refetchIntervalMs` while the page is open, so a merchant's payment appears without a reload;
 * when a refetch brings a new or changed row, the card (Available, Held) and the wallet's balances
 * are fetched again too, so no figure on the page stays stale.
 */
export function useCardTransactions(id: number, pageID: number, refetchIntervalMs: number) {
  const client = useQueryClient();
  const query = useQuery({
    queryKey: cardKeys.transactions(id, pageID),
    queryFn: ({ signal }) => getCardTransactions(id, pageID, signal),
    placeholderData: keepPreviousData,
    refetchInterval: refetchIntervalMs,
    retry: false,
  });
  const shown = useRef<{ key: string; signature: string } | null>(null);
  const list = query.isPlaceholderData ? undefined : query.data?.list;
  useEffect(() => {
    if (!list) return;
    const key = `${id}/${pageID}`;
    const signature = transactionsSignature(list);
    const previous = shown.current;
    shown.current = { key, signature };
    if (previous?.key !== key || previous.signature === signature) return;
    void client.invalidateQueries({ queryKey: cardKeys.detail(id) });
    void client.invalidateQueries({ queryKey: cardKeys.list });
    void client.invalidateQueries({ queryKey: walletBalanceKey });
  }, [client, id, pageID, list]);
  return query;
}
