import { backOfficeAccessEndpoints } from '@meridian/contracts/back-office';
import type { z } from 'zod';
import { unwrap } from '../../../lib/api-client.ts';
import { adminCall, adminKeys } from './admin-call.ts';
import { useAdminMutation } from './use-admin-mutation.ts';

export type SignInInput = z.input<typeof backOfficeAccessEndpoints.signIn.body>;

/** `POST admin/session`: email, password and (once enrolled) the TOTP code. */
export async function signIn(body: SignInInput) {
  return unwrap(await adminCall(backOfficeAccessEndpoints.signIn, { body }, { quietSuccess: true }));
}

/** Sign-in mutation; the answer says whether the session is full or must enrol an authenticator first. */
export function useSignIn() {
  return useAdminMutation(signIn, [adminKeys.session]);
}
