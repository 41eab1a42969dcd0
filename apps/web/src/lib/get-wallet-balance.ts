import { walletEndpoints } from '@meridian/contracts/wallet';
import { useQuery } from '@tanstack/react-query';
import { callEndpoint, unwrap } from './api-client.ts';
import { useUserId } from './session.ts';

/**
 * The TanStack Query key of the balances, shared by the wallet pages and the exchange panel (one
 * feature may not import another), so a swap or a withdrawal refreshes what both show.
 */
export const walletBalanceKey = ['wallet', 'balance'] as const;

/** `GET wallet/balance` (spec §7, `walletEndpoints.balance`): the signed-in user's balances valued in USD. */
export async function getWalletBalance() {
  return unwrap(await callEndpoint(walletEndpoints.balance, {}));
}

/** The signed-in user's balances; off for guests. */
export function useWalletBalance() {
  const userId = useUserId();
  return useQuery({ queryKey: walletBalanceKey, enabled: userId !== null, queryFn: getWalletBalance });
}
