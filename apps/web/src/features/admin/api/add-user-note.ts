import { backOfficeUserEndpoints } from '@meridian/contracts/back-office';
import { unwrap } from '../../../lib/api-client.ts';
import { adminCall, adminKeys } from './admin-call.ts';
import { useAdminMutation } from './use-admin-mutation.ts';

/** `POST admin/users/:userId/notes`: an operator note on the user. */
export async function addUserNote(input: { userId: string; text: string }) {
  const { userId, text } = input;
  return unwrap(await adminCall(backOfficeUserEndpoints.addUserNote, { params: { userId }, body: { text } }));
}

/** Add-note mutation of the user page. */
export function useAddUserNote() {
  return useAdminMutation(addUserNote, [adminKeys.users]);
}
