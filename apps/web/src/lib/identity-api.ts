/**
 * Transitional: the identity calls now live one per file (`get-self.ts`, `get-security-config.ts`,
 * `send-email-code.ts`, `identity-keys.ts` here; login, register and recover in
 * `features/identity/api`). This module only keeps the names the security pages still import, and
 * goes once they import the per-call files (issue 13 item 1).
 */
import { getSecurityConfig } from './get-security-config.ts';
import { getSelf } from './get-self.ts';
import { sendEmailCode } from './send-email-code.ts';

export { identityKeys } from './identity-keys.ts';
export { useSecurityConfig } from './get-security-config.ts';
export { useSelf } from './get-self.ts';

/** @deprecated Import `sendEmailCode`, `getSelf` or `getSecurityConfig` from their own files. */
export const identityApi = {
  sendCode: sendEmailCode,
  self: getSelf,
  config: getSecurityConfig,
};
