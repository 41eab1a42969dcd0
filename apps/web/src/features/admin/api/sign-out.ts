import { backOfficeAccessEndpoints } from '@meridian/contracts/back-office';
import { adminCall } from './admin-call.ts';

/** `DELETE admin/session`: revokes the session row; the caller forgets every back-office query. */
export function signOut() {
  return adminCall(backOfficeAccessEndpoints.signOut, {}, { quietSuccess: true });
}
