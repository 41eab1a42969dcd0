import { apiKeyEndpoints } from '@meridian/contracts/api-keys';
import { useQuery } from '@tanstack/react-query';
import { callEndpoint, unwrap } from '../../../lib/api-client.ts';

/** Query key of the user's API keys (refreshed after a create or delete). */
export const apiKeysKey = ['identity', 'apiKeys'] as const;

/** `GET user/apiKeys` (`apiKeyEndpoints.list`): the user's developer API keys. */
export async function getApiKeys() {
  return unwrap(await callEndpoint(apiKeyEndpoints.list, {}));
}

/** The user's developer API keys. */
export function useApiKeys() {
  return useQuery({ queryKey: apiKeysKey, queryFn: getApiKeys });
}
