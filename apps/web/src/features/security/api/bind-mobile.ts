import { securityEndpoints } from '@meridian/contracts/identity';
import { callEndpoint } from '../../../lib/api-client.ts';
import type { EndpointInput } from '@meridian/contracts/endpoint';

/** The body of `bindMobile` as the client sends it (wire shape of the descriptor's body schema). */
export type BindMobileBody = EndpointInput<typeof securityEndpoints.bindMobile>['body'];

/** `POST user/web/mobile/bind` (api-version 2.0 from `securityEndpoints.bindMobile`): bind a mobile number; resolves to the envelope. */
export function bindMobile(body: BindMobileBody) {
  return callEndpoint(securityEndpoints.bindMobile, { body });
}
