import { backOfficeUserEndpoints } from '@meridian/contracts/back-office';
import { unwrap } from '../../../lib/api-client.ts';
import { adminCall, adminKeys } from './admin-call.ts';
import { useAdminMutation } from './use-admin-mutation.ts';

/** `POST admin/users/:userId/reset-2fa`: removes the user's authenticator; withdrawals are held 24 h. */
export async function resetUserTotp(input: { userId: string; reason: string }) {
  const { userId, reason } = input;
  return unwrap(await adminCall(backOfficeUserEndpoints.resetUserTotp, { params: { userId }, body: { reason } }));
}

/** Reset-2FA mutation of the user page. */
export function useResetUserTotp() {
  return useAdminMutation(resetUserTotp, [adminKeys.users]);
}
