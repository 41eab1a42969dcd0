import { passkeyEndpoints } from '@meridian/contracts/passkeys';
import { useSecuredAction } from '../../../hooks/use-secured-action.ts';

/**
 * `DELETE user/passkeys/{id}` (`passkeyEndpoints.removePasskey`, sensitive `PASSKEY_REMOVE`)
 * through the security check: the returned function removes the passkey of that id.
 */
export function useRemovePasskey(onSuccess: () => void) {
  const action = useSecuredAction({ endpoint: passkeyEndpoints.removePasskey, onSuccess: () => onSuccess() });
  return (id: string) => action.run({ params: { id }, body: {} });
}
