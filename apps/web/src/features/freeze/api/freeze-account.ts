import { freezeLinkEndpoints } from '@meridian/contracts/freeze-links';
import { callEndpoint } from '../../../lib/api-client.ts';

/**
 * `POST user/freeze` (`freezeLinkEndpoints.freeze`): freeze the account of a security
 * email's one-time link, without signing in. The page shows the result and any refusal itself (silent).
 */
export function freezeAccount(token: string) {
  return callEndpoint(freezeLinkEndpoints.freeze, { body: { token } }, { silent: true });
}
