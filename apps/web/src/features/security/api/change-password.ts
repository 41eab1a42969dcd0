import { securityEndpoints } from '@meridian/contracts/identity';
import { callEndpoint } from '../../../lib/api-client.ts';
import type { EndpointInput } from '@meridian/contracts/endpoint';

/** The body of `changePassword` as the client sends it (wire shape of the descriptor's body schema). */
export type ChangePasswordBody = EndpointInput<typeof securityEndpoints.changePassword>['body'];

/** `POST user/password` (`securityEndpoints.changePassword`): change the login password (signs out other sessions); resolves to the envelope. */
export function changePassword(body: ChangePasswordBody) {
  return callEndpoint(securityEndpoints.changePassword, { body });
}
