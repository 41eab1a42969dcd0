import type { WithdrawCheckBody, WithdrawCheckContent } from '@meridian/contracts/wallet';
import { useMutation } from '@tanstack/react-query';
import { apiClient, unwrap } from '../../../lib/api-client.ts';

/**
 * `POST wallet/withdraw/check` (issue 14 item 10): the withdrawal's dry run — every check of the
 * withdrawal, nothing changed, no code asked. Silent: the form shows its refusals inline from the
 * thrown `ApiError`'s envelope (field errors included).
 */
export async function checkWithdrawal(body: WithdrawCheckBody): Promise<WithdrawCheckContent> {
  return unwrap(await apiClient.post<WithdrawCheckContent>('wallet/withdraw/check', body, { silent: true, apiVersion: '2.0' }));
}

/** Dry-run a withdrawal before the security check. */
export function useCheckWithdrawal() {
  return useMutation({ mutationFn: checkWithdrawal });
}
