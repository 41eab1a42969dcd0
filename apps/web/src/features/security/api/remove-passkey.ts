import { passkeyEndpoints } from '@meridian/contracts/passkeys';
import { openSecurityCheck } from '../../../stores/modal-store.ts';

/** `DELETE user/passkeys/{id}` (`passkeyEndpoints.removePasskey`, sensitive `PASSKEY_REMOVE`) through the security-check modal. */
export function removePasskey(id: string, onSuccess: () => void) {
  openSecurityCheck({ endpoint: passkeyEndpoints.removePasskey, input: { params: { id }, body: {} }, onSuccess });
}
