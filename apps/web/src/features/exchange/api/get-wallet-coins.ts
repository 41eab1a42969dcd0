import type { WalletCoin } from '@meridian/contracts/wallet';
import { useQuery } from '@tanstack/react-query';
import { apiClient, unwrap } from '../../../lib/api-client.ts';
import { exchangeKeys } from './exchange-keys.ts';

/** How long the coin list is fresh. */
const COINS_STALE_MS = 60_000;

/** `GET coinlist` (spec §7, public): the wallet's coins with their networks. */
export async function getWalletCoins(): Promise<WalletCoin[]> {
  return unwrap(await apiClient.get<WalletCoin[]>('coinlist'));
}

/** The wallet's coins (the history's coin filter: all plus each wallet coin). */
export function useWalletCoins() {
  return useQuery({ queryKey: exchangeKeys.coins, queryFn: getWalletCoins, staleTime: COINS_STALE_MS });
}
