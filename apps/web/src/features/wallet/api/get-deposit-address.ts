import { type AssetCode, isAssetCode } from '@meridian/contracts/money';
import { walletEndpoints } from '@meridian/contracts/wallet';
import { skipToken, useQuery } from '@tanstack/react-query';
import { callEndpoint, unwrap } from '../../../lib/api-client.ts';
import { useUserId } from '../../../lib/session.ts';
import { walletKeys } from './wallet-keys.ts';

/** `GET wallet/address?action=deposit` (`walletEndpoints.depositAddress`): the user's deposit address of `coin` on network `net`. */
export async function getDepositAddress(coin: AssetCode, net: string) {
  return unwrap(await callEndpoint(walletEndpoints.depositAddress, { query: { coin, net, action: 'deposit' } }));
}

/** The deposit address of `coin` on `network` (derived on first request, never changes); off for guests, without a network or for an unknown coin. */
export function useDepositAddress(coin: string, network: string | undefined) {
  const userId = useUserId();
  return useQuery({
    queryKey: walletKeys.address(coin, network ?? ''),
    queryFn:
      userId !== null && network !== undefined && isAssetCode(coin)
        ? () => getDepositAddress(coin, network)
        : skipToken,
    staleTime: Infinity,
  });
}
