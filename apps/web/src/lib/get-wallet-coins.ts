import { walletEndpoints } from '@meridian/contracts/wallet';
import { useQuery } from '@tanstack/react-query';
import { callEndpoint, unwrap } from './api-client.ts';

/** The TanStack Query key of the wallet's coin list, shared by the wallet pages and the swap history. */
export const walletCoinsKey = ['wallet', 'coins'] as const;

/** How long the coin list is fresh. */
const COINS_STALE_MS = 60_000;

/** `GET coinlist` (public; `walletEndpoints.listCoins`): the enabled coins with their networks and withdrawal limits. */
export async function getWalletCoins() {
  return unwrap(await callEndpoint(walletEndpoints.listCoins, {}));
}

/** The enabled coins with their networks (public): the wallet pages' coin choice and the swap history's coin filter. */
export function useWalletCoins() {
  return useQuery({ queryKey: walletCoinsKey, queryFn: getWalletCoins, staleTime: COINS_STALE_MS });
}
