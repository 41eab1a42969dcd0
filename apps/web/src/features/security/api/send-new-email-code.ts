import { securityEndpoints } from '@meridian/contracts/identity';
import { callEndpoint } from '../../../lib/api-client.ts';
import type { EndpointInput } from '@meridian/contracts/endpoint';

/** The body of `sendNewEmailCode` as the client sends it (wire shape of the descriptor's body schema). */
export type SendNewEmailCodeBody = EndpointInput<typeof securityEndpoints.sendNewEmailCode>['body'];

/** `POST user/email/captcha` (`securityEndpoints.sendNewEmailCode`): send an EMAIL_CHANGE code to the new address. Silent: the section shows the outcome. */
export function sendNewEmailCode(body: SendNewEmailCodeBody) {
  return callEndpoint(securityEndpoints.sendNewEmailCode, { body }, { silent: true });
}
