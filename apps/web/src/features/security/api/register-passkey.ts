import { passkeyEndpoints } from '@meridian/contracts/passkeys';
import { useSecuredAction } from '../../../hooks/use-secured-action.ts';

/** What registering sends: the passkey's name and the browser's answer to the challenge. */
export interface RegisterPasskeyInput {
  name: string;
  challengeId: string;
  response: Record<string, unknown>;
}

/**
 * `POST user/passkeys` (`passkeyEndpoints.registerPasskey`, sensitive `PASSKEY_ADD`): `register`
 * sends the created passkey under its name through the security check, which adds the factors;
 * `onFailure` gets the message of each refusal.
 */
export function useRegisterPasskey(callbacks: { onSuccess: () => void; onFailure: (message: string) => void }) {
  const action = useSecuredAction({
    endpoint: passkeyEndpoints.registerPasskey,
    onSuccess: () => callbacks.onSuccess(),
    onRefusal: ({ message }) => callbacks.onFailure(message),
  });
  return (body: RegisterPasskeyInput) => action.run({ body: body as never });
}
