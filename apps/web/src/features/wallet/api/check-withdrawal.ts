import type { WithdrawCheckBody } from '@meridian/contracts/wallet';
import { walletEndpoints } from '@meridian/contracts/wallet';
import { useMutation } from '@tanstack/react-query';
import { callEndpoint, unwrap } from '../../../lib/api-client.ts';

/**
 * `POST wallet/withdraw/check` (`walletEndpoints.checkWithdrawal`): the withdrawal's
 * dry run — every check of the withdrawal, nothing changed, no code asked. Silent: the form shows its
 * refusals inline from the thrown `ApiError`'s envelope (field errors included).
 */
export async function checkWithdrawal(body: WithdrawCheckBody) {
  return unwrap(await callEndpoint(walletEndpoints.checkWithdrawal, { body }, { silent: true }));
}

/** Dry-run a withdrawal before the security check. */
export function useCheckWithdrawal() {
  return useMutation({ mutationFn: checkWithdrawal });
}
