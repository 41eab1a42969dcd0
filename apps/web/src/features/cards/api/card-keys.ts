import { useQueryClient } from '@tanstack/react-query';
import { walletBalanceKey } from '../../../lib/get-wallet-balance.ts';

/** The TanStack Query keys of the card calls (`cardEndpoints`). */
export const cardKeys = {
  all: ['cards'] as const,
  config: ['cards', 'config'] as const,
  list: ['cards', 'list'] as const,
  detail: (id: number) => ['cards', 'detail', id] as const,
  transactions: (id: number, pageID: number) => ['cards', 'transactions', id, pageID] as const,
  confirmations: ['cards', 'confirmations'] as const,
  /** The PRO account (`corporate/pro`): under `cards`, so a card action refetches it too. */
  pro: ['cards', 'pro'] as const,
};

/** Refetch what a card action changed: every card view and the wallet's balances (fees, top-ups). */
export function useInvalidateCards() {
  const client = useQueryClient();
  return () => {
    void client.invalidateQueries({ queryKey: cardKeys.all });
    void client.invalidateQueries({ queryKey: walletBalanceKey });
  };
}
