import type { BalanceContent } from '@meridian/contracts/wallet';
import { useQuery } from '@tanstack/react-query';
import { apiClient, unwrap } from '../../../lib/api-client.ts';
import { useUserId } from '../../../lib/session.ts';
import { exchangeKeys } from './exchange-keys.ts';

/** `GET wallet/balance` (spec §7): the signed-in user's balances (the from-coin's available amount). */
export async function getBalance(): Promise<BalanceContent> {
  return unwrap(await apiClient.get<BalanceContent>('wallet/balance'));
}

/** The balances, under the wallet's key so a swap refreshes the wallet pages too; off for guests. */
export function useExchangeBalance() {
  const userId = useUserId();
  return useQuery({ queryKey: exchangeKeys.balance, enabled: userId !== null, queryFn: getBalance });
}
