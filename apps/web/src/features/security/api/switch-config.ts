import { securityEndpoints } from '@meridian/contracts/identity';
import { callEndpoint } from '../../../lib/api-client.ts';
import type { EndpointInput } from '@meridian/contracts/endpoint';

/** The body of `switchConfig` as the client sends it (wire shape of the descriptor's body schema). */
export type SwitchConfigBody = EndpointInput<typeof securityEndpoints.switchConfig>['body'];

/** `POST user/config/switch` (`securityEndpoints.switchConfig`): turn a login or trade factor on or off, with the factors it needs; resolves to the envelope. */
export function switchConfig(body: SwitchConfigBody) {
  return callEndpoint(securityEndpoints.switchConfig, { body });
}
