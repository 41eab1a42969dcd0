import { passkeyEndpoints } from '@meridian/contracts/passkeys';
import { openSecurityCheck } from '../../../stores/modal-store.ts';

/**
 * `POST user/passkeys` (`passkeyEndpoints.registerPasskey`, sensitive `PASSKEY_ADD`): register the
 * created passkey under `name` through the security-check modal, which adds the factors.
 */
export function registerPasskey(
  body: { name: string; challengeId: string; response: Record<string, unknown> },
  callbacks: { onSuccess: () => void; onFailure: (message: string) => void },
) {
  openSecurityCheck({
    endpoint: passkeyEndpoints.registerPasskey,
    input: { body: body as never },
    onSuccess: callbacks.onSuccess,
    onFailure: (_status, response) => callbacks.onFailure(response.message),
  });
}
