// @vitest-environment jsdom
import type { CardTransaction } from '@meridian/contracts/cards';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cardKeys } from './card-keys.ts';
import { transactionsSignature, useCardTransactions } from './get-card-transactions.ts';

const pages: { list: Pick<CardTransaction, 'id' | 'status' | 'amount'>[] }[] = [];
vi.mock('../../../lib/api-client.ts', () => ({
  callEndpoint: vi.fn(async () => ({ statusCode: 200, body: { content: pages[0] } })),
  unwrap: (response: { body: { content: unknown } }) => response.body.content,
}));

afterEach(() => cleanup());

describe('card transactions', () => {
  it('a page signature changes with a new row, a status or an amount', () => {
    const row = { id: 1, status: 'AUTHORIZED', amount: '20.00' } as const;
    expect(transactionsSignature([row])).toBe(transactionsSignature([{ ...row }]));
    expect(transactionsSignature([row])).not.toBe(transactionsSignature([{ ...row, status: 'CLEARED' }]));
    expect(transactionsSignature([row])).not.toBe(
      transactionsSignature([{ id: 2, status: 'AUTHORIZED', amount: '1.00' }, row]),
    );
  });

  it('a refetch that brings a new payment refreshes the card’s balance, and one that brings nothing does not', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    pages[0] = { list: [{ id: 1, status: 'AUTHORIZED', amount: '20.00' }] };
    client.setQueryData(cardKeys.detail(7), { available: '80.00' });
    const { result } = renderHook(() => useCardTransactions(7, 1, 0), { wrapper });
    await waitFor(() => expect(result.current.data?.list).toHaveLength(1));

    await client.refetchQueries({ queryKey: cardKeys.transactions(7, 1) });
    expect(client.getQueryState(cardKeys.detail(7))?.isInvalidated).toBe(false);

    pages[0] = {
      list: [
        { id: 2, status: 'AUTHORIZED', amount: '5.00' },
        { id: 1, status: 'AUTHORIZED', amount: '20.00' },
      ],
    };
    await client.refetchQueries({ queryKey: cardKeys.transactions(7, 1) });
    await waitFor(() => expect(client.getQueryState(cardKeys.detail(7))?.isInvalidated).toBe(true));
  });
});
