import { identityEndpoints } from '@meridian/contracts/identity';
import { useQuery } from '@tanstack/react-query';
import { callEndpoint, unwrap } from '../../../lib/api-client.ts';
import { identityKeys } from '../../../lib/identity-keys.ts';

/** `GET user/sessions` (`identityEndpoints.listSessions`): the user's active sessions. */
export async function getSessions() {
  return unwrap(await callEndpoint(identityEndpoints.listSessions, {}));
}

/** The active sessions. */
export function useSessions() {
  return useQuery({ queryKey: identityKeys.sessions, queryFn: getSessions });
}
