import { identityEndpoints, type SendCodeContent } from '@meridian/contracts/identity';
import type { CaptchaEvent } from '@meridian/contracts/security';
import { type ApiResponse, callEndpoint } from './api-client.ts';

/**
 * `POST user/captcha` (descriptor `identityEndpoints.sendEmailCode`): send an email code for
 * `event`; `email` and `ticket` name the account in the signed-out flows (login, register, recover).
 * Silent, and a 101 does not open the login modal: the code field shows the outcome. Resolves to
 * the envelope (its `content` says where the code went and when another may be asked for).
 */
export function sendEmailCode(
  event: CaptchaEvent,
  extra: { email?: string; ticket?: string } = {},
): Promise<ApiResponse<SendCodeContent>> {
  return callEndpoint(
    identityEndpoints.sendEmailCode,
    { body: { event, ...extra } },
    { silent: true, skipLoginRedirect: true },
  );
}
