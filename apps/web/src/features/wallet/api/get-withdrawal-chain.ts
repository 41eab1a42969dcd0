import { chainWithdrawalEndpoints } from '@meridian/contracts/chain-withdrawals';
import { useQuery } from '@tanstack/react-query';
import { callEndpoint, unwrap } from '../../../lib/api-client.ts';
import { walletKeys } from './wallet-keys.ts';

/**
 * `GET wallet/withdraw/:id/chain` (`chainWithdrawalEndpoints.withdrawalChain`): the hash of a
 * withdrawal sent from the hot wallet and its block-explorer link. Asked only when `enabled`; a
 * withdrawal paid another way answers NOT_FOUND, which is not retried.
 */
export function useWithdrawalChain(id: string, enabled: boolean) {
  return useQuery({
    queryKey: walletKeys.withdrawalChain(id),
    enabled,
    retry: false,
    staleTime: 60_000,
    queryFn: async ({ signal }) =>
      unwrap(await callEndpoint(chainWithdrawalEndpoints.withdrawalChain, { params: { id } }, { signal })),
  });
}
