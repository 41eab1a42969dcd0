import type { DepositAddressContent } from '@meridian/contracts/wallet';
import { useQuery } from '@tanstack/react-query';
import { apiClient, unwrap } from '../../../lib/api-client.ts';
import { useUserId } from '../../../lib/session.ts';
import { walletKeys } from './wallet-keys.ts';

/** `GET wallet/address?action=deposit` (spec §7): the user's deposit address of `coin` on network `net`. */
export async function getDepositAddress(coin: string, net: string): Promise<DepositAddressContent> {
  return unwrap(await apiClient.get<DepositAddressContent>('wallet/address', { params: { coin, net, action: 'deposit' } }));
}

/** The deposit address of `coin` on `network` (derived on first request, never changes). */
export function useDepositAddress(coin: string, network: string | undefined) {
  const userId = useUserId();
  return useQuery({
    queryKey: walletKeys.address(coin, network ?? ''),
    enabled: userId !== null && network !== undefined,
    queryFn: () => getDepositAddress(coin, network ?? ''),
    staleTime: Infinity,
  });
}
