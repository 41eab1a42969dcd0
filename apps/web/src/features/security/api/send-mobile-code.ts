import { securityEndpoints } from '@meridian/contracts/identity';
import { callEndpoint } from '../../../lib/api-client.ts';
import type { EndpointInput } from '@meridian/contracts/endpoint';

/** The body of `sendMobileCode` as the client sends it (wire shape of the descriptor's body schema). */
export type SendMobileCodeBody = EndpointInput<typeof securityEndpoints.sendMobileCode>['body'];

/** `POST user/mobile/captcha` (`securityEndpoints.sendMobileCode`): send an SMS code to the number to bind. Silent: the page shows the outcome. */
export function sendMobileCode(body: SendMobileCodeBody) {
  return callEndpoint(securityEndpoints.sendMobileCode, { body }, { silent: true });
}
