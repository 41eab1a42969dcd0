import { securityEndpoints } from '@meridian/contracts/identity';
import { callEndpoint } from '../../../lib/api-client.ts';
import type { EndpointInput } from '@meridian/contracts/endpoint';

/** The body of `unbindMfa` as the client sends it (wire shape of the descriptor's body schema). */
export type UnbindMfaBody = EndpointInput<typeof securityEndpoints.unbindMfa>['body'];

/** `DELETE user/config/mfa/key` (`securityEndpoints.unbindMfa`): unbind the authenticator with the factors it needs; resolves to the envelope. */
export function unbindMfa(body: UnbindMfaBody) {
  return callEndpoint(securityEndpoints.unbindMfa, { body });
}
