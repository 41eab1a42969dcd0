import type { WalletRecord } from '@meridian/contracts/wallet';
import { useMutation } from '@tanstack/react-query';
import { apiClient, unwrap } from '../../../lib/api-client.ts';
import { useInvalidateWallet } from './wallet-keys.ts';

/** `POST wallet/withdraw/{id}/cancel` (spec §7): cancels a withdrawal still waiting (status 0); the client shows the result. */
export async function cancelWithdrawal(id: string): Promise<WalletRecord> {
  return unwrap(await apiClient.post<WalletRecord>(`wallet/withdraw/${id}/cancel`));
}

/** Cancel a waiting withdrawal; a done cancel refetches balances and histories. */
export function useCancelWithdrawal() {
  const invalidate = useInvalidateWallet();
  return useMutation({ mutationFn: cancelWithdrawal, onSuccess: invalidate });
}
