import { securityEndpoints } from '@meridian/contracts/identity';
import { callEndpoint } from '../../../lib/api-client.ts';
import type { EndpointInput } from '@meridian/contracts/endpoint';

/** The body of `bindMfa` as the client sends it (wire shape of the descriptor's body schema). */
export type BindMfaBody = EndpointInput<typeof securityEndpoints.bindMfa>['body'];

/** `POST user/config/mfa/key` (`securityEndpoints.bindMfa`): bind the authenticator; the envelope carries the 10 recovery codes once. */
export function bindMfa(body: BindMfaBody) {
  return callEndpoint(securityEndpoints.bindMfa, { body });
}
