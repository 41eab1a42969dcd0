import type { LoginContent } from '@meridian/contracts/identity';
import { passkeyEndpoints, type PasskeyLoginRequest } from '@meridian/contracts/passkeys';
import { type ApiResponse, callEndpoint } from '../../../lib/api-client.ts';

/** `POST user/passkeys/login` (`passkeyEndpoints.passkeyLogin`): sign in with a passkey's answer; silent, the form shows failures. */
export function passkeyLogIn(body: PasskeyLoginRequest): Promise<ApiResponse<LoginContent>> {
  return callEndpoint(passkeyEndpoints.passkeyLogin, { body }, { silent: true, skipLoginRedirect: true });
}
