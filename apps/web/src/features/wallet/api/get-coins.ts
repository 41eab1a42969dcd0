import type { WalletCoin } from '@meridian/contracts/wallet';
import { useQuery } from '@tanstack/react-query';
import { apiClient, unwrap } from '../../../lib/api-client.ts';
import { walletKeys } from './wallet-keys.ts';

/** How long the coin list is fresh. */
const COINS_STALE_MS = 60_000;

/** `GET coinlist` (spec §7, public): the enabled coins with their networks and withdrawal limits. */
export async function getCoins(): Promise<WalletCoin[]> {
  return unwrap(await apiClient.get<WalletCoin[]>('coinlist'));
}

/** Enabled coins with their networks (public). */
export function useCoins() {
  return useQuery({ queryKey: walletKeys.coins, queryFn: getCoins, staleTime: COINS_STALE_MS });
}
