import { backOfficeUserEndpoints } from '@meridian/contracts/back-office';
import { unwrap } from '../../../lib/api-client.ts';
import { adminCall, adminKeys } from './admin-call.ts';
import { useAdminMutation } from './use-admin-mutation.ts';

/** `POST admin/users/:userId/freeze`: the account can sign in and see, not move money; with the operator's reason (audited). */
export async function freezeUser(input: { userId: string; reason: string }) {
  const { userId, reason } = input;
  return unwrap(await adminCall(backOfficeUserEndpoints.freezeUser, { params: { userId }, body: { reason } }));
}

/** Freeze mutation of the user page; refreshes the user and the users table. */
export function useFreezeUser() {
  return useAdminMutation(freezeUser, [adminKeys.users]);
}
