import { useQuery } from '@tanstack/react-query';
import { callEndpoint, unwrap } from './api-client.ts';
import { useUserId } from './session.ts';

/**
 * The TanStack Query key of the balances, shared by the wallet pages and the exchange panel (one
 * feature may not import another), so a swap or a withdrawal refreshes what both show.
 */
export const walletBalanceKey = ['wallet', 'balance'] as const;

/**
 * `GET wallet/balance` (`walletEndpoints.balance`): the signed-in user's balances valued in
 * USD. The wallet's contracts (their schemas are built when the module loads) are imported with the
 * first call, so that a guest's page that could show balances does not load them.
 */
export async function getWalletBalance() {
  const { walletEndpoints } = await import('@meridian/contracts/wallet');
  return unwrap(await callEndpoint(walletEndpoints.balance, {}));
}

/** The signed-in user's balances; off for guests. */
export function useWalletBalance() {
  const userId = useUserId();
  return useQuery({ queryKey: walletBalanceKey, enabled: userId !== null, queryFn: getWalletBalance });
}
