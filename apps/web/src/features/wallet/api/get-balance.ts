import type { BalanceContent } from '@meridian/contracts/wallet';
import { useQuery } from '@tanstack/react-query';
import { apiClient, unwrap } from '../../../lib/api-client.ts';
import { useUserId } from '../../../lib/session.ts';
import { walletKeys } from './wallet-keys.ts';

/** `GET wallet/balance` (spec §7): the signed-in user's balances valued in USD. */
export async function getBalance(): Promise<BalanceContent> {
  return unwrap(await apiClient.get<BalanceContent>('wallet/balance'));
}

/** The signed-in user's balances; off for guests. */
export function useBalance() {
  const userId = useUserId();
  return useQuery({ queryKey: walletKeys.balance, enabled: userId !== null, queryFn: getBalance });
}
