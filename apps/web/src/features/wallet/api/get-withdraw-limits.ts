import { walletEndpoints } from '@meridian/contracts/wallet';
import { useQuery } from '@tanstack/react-query';
import { callEndpoint, unwrap } from '../../../lib/api-client.ts';
import { useUserId } from '../../../lib/session.ts';
import { walletKeys } from './wallet-keys.ts';

/**
 * `GET wallet/withdraw/limits` (`walletEndpoints.withdrawLimits`): the caller's identity
 * level and, per rolling 24 hours and per Hong Kong calendar month, the limit, used and left in USD
 * (decimal strings).
 */
export async function getWithdrawLimits() {
  return unwrap(await callEndpoint(walletEndpoints.withdrawLimits, {}));
}

/** What is left of the withdrawal limits; off for guests; refetched after a withdrawal (`useInvalidateWallet`). */
export function useWithdrawLimits() {
  const userId = useUserId();
  return useQuery({ queryKey: walletKeys.withdrawLimits, enabled: userId !== null, queryFn: getWithdrawLimits });
}
