import { walletEndpoints } from '@meridian/contracts/wallet';
import { useQuery } from '@tanstack/react-query';
import { callEndpoint, unwrap } from '../../../lib/api-client.ts';
import { useUserId } from '../../../lib/session.ts';
import { walletKeys } from './wallet-keys.ts';

/** `GET wallet/addressbook` (`walletEndpoints.listAddressBook`): the user's saved withdrawal addresses. */
export async function getAddressBook() {
  return unwrap(await callEndpoint(walletEndpoints.listAddressBook, {}));
}

/** The saved withdrawal addresses; off for guests. */
export function useAddressBook() {
  const userId = useUserId();
  return useQuery({ queryKey: walletKeys.addressBook, enabled: userId !== null, queryFn: getAddressBook });
}
