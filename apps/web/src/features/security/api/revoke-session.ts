import { identityEndpoints } from '@meridian/contracts/identity';
import { callEndpoint } from '../../../lib/api-client.ts';

/** `DELETE user/sessions/{id}` (`identityEndpoints.revokeSession`): revoke one session; the client shows the result. */
export function revokeSession(id: string) {
  return callEndpoint(identityEndpoints.revokeSession, { params: { id } });
}
