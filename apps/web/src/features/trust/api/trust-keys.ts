import { useQueryClient } from '@tanstack/react-query';
import { walletBalanceKey } from '../../../lib/get-wallet-balance.ts';

/** The TanStack Query keys of the trust calls. */
export const trustKeys = {
  all: ['trust'] as const,
  list: ['trust', 'list'] as const,
  detail: (id: number, pageID: number) => ['trust', 'detail', id, pageID] as const,
};

/** Refetch what a trust movement changed: the trusts (holdings, history) and the wallet's balances. */
export function useInvalidateTrusts() {
  const client = useQueryClient();
  return () => {
    void client.invalidateQueries({ queryKey: trustKeys.all });
    void client.invalidateQueries({ queryKey: walletBalanceKey });
  };
}
