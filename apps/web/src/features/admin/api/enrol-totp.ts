import { backOfficeAccessEndpoints } from '@meridian/contracts/back-office';
import { unwrap } from '../../../lib/api-client.ts';
import { adminCall, adminKeys } from './admin-call.ts';
import { useAdminMutation } from './use-admin-mutation.ts';

/** `POST admin/session/totp`: confirms the authenticator at the first sign-in; the session becomes full. */
export async function enrolTotp(totpCode: string) {
  return unwrap(await adminCall(backOfficeAccessEndpoints.enrolTotp, { body: { totpCode } }, { quietSuccess: true }));
}

/** Enrolment mutation of the sign-in page. */
export function useEnrolTotp() {
  return useAdminMutation(enrolTotp, [adminKeys.session]);
}
