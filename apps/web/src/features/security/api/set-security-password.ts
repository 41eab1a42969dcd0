import { securityEndpoints } from '@meridian/contracts/identity';
import { callEndpoint } from '../../../lib/api-client.ts';
import type { EndpointInput } from '@meridian/contracts/endpoint';

/** The body of `setSecurityPassword` as the client sends it (wire shape of the descriptor's body schema). */
export type SetSecurityPasswordBody = EndpointInput<typeof securityEndpoints.setSecurityPassword>['body'];

/** `POST user/security/password` (`securityEndpoints.setSecurityPassword`): set or change the 6-digit security code; resolves to the envelope. */
export function setSecurityPassword(body: SetSecurityPasswordBody) {
  return callEndpoint(securityEndpoints.setSecurityPassword, { body });
}
