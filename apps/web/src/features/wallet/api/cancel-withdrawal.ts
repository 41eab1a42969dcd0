import { walletEndpoints } from '@meridian/contracts/wallet';
import { useMutation } from '@tanstack/react-query';
import { callEndpoint, unwrap } from '../../../lib/api-client.ts';
import { useInvalidateWallet } from './wallet-keys.ts';

/** `POST wallet/withdraw/{id}/cancel` (`walletEndpoints.cancelWithdrawal`): cancels a withdrawal still waiting (status 0); the client shows the result. */
export async function cancelWithdrawal(id: string) {
  return unwrap(await callEndpoint(walletEndpoints.cancelWithdrawal, { params: { id } }));
}

/** Cancel a waiting withdrawal; a done cancel refetches balances and histories. */
export function useCancelWithdrawal() {
  const invalidate = useInvalidateWallet();
  return useMutation({ mutationFn: cancelWithdrawal, onSuccess: invalidate });
}
