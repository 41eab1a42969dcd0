import { backOfficeUserEndpoints } from '@meridian/contracts/back-office';
import { unwrap } from '../../../lib/api-client.ts';
import { adminCall, adminKeys } from './admin-call.ts';
import { useAdminMutation } from './use-admin-mutation.ts';

/** `POST admin/users/:userId/unfreeze` with the operator's reason (audited). */
export async function unfreezeUser(input: { userId: string; reason: string }) {
  const { userId, reason } = input;
  return unwrap(await adminCall(backOfficeUserEndpoints.unfreezeUser, { params: { userId }, body: { reason } }));
}

/** Unfreeze mutation of the user page; refreshes the user and the users table. */
export function useUnfreezeUser() {
  return useAdminMutation(unfreezeUser, [adminKeys.users]);
}
