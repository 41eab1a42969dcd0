import { apiKeyEndpoints } from '@meridian/contracts/api-keys';
import { callEndpoint } from '../../../lib/api-client.ts';

/** `DELETE user/apiKeys/{id}` (`apiKeyEndpoints.remove`): the key stops working at once. */
export function deleteApiKey(id: string) {
  return callEndpoint(apiKeyEndpoints.remove, { params: { id } });
}
