import { walletEndpoints } from '@meridian/contracts/wallet';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callEndpoint, unwrap } from '../../../lib/api-client.ts';
import { walletKeys } from './wallet-keys.ts';

/** `DELETE wallet/addressbook/{id}` (`walletEndpoints.deleteAddress`): removes a saved address; the client shows the result. */
export async function deleteAddress(id: number) {
  return unwrap(await callEndpoint(walletEndpoints.deleteAddress, { params: { id } }));
}

/** Remove a saved address; a done removal refetches the address book. */
export function useDeleteAddress() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteAddress,
    onSuccess: () => client.invalidateQueries({ queryKey: walletKeys.addressBook }),
  });
}
