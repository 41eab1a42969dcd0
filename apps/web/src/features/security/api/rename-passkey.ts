import { passkeyEndpoints } from '@meridian/contracts/passkeys';
import { callEndpoint } from '../../../lib/api-client.ts';

/** `PATCH user/passkeys/{id}` (`passkeyEndpoints.renamePasskey`): a new name; the envelope for the form. */
export function renamePasskey(id: string, name: string) {
  return callEndpoint(passkeyEndpoints.renamePasskey, { params: { id }, body: { name } }, { silent: true });
}
