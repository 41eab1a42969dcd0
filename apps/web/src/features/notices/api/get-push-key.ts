import { noticeEndpoints } from '@meridian/contracts/notices';
import { callEndpoint, unwrap } from '../../../lib/api-client.ts';

/**
 * `GET /api/notice/push/key` (descriptor `noticeEndpoints.pushKey`): the VAPID public key (base64url)
 * browsers subscribe with, or null when the server sends no push. Read once per sign-in by the push
 * registration, so it has no query hook.
 * @throws ApiError on a non-200; Error when the answer does not match the contract.
 */
export async function getPushKey(): Promise<string | null> {
  const content: unknown = unwrap(await callEndpoint(noticeEndpoints.pushKey, {}, { skipLoginRedirect: true }));
  if (content === null) return null;
  if (typeof content !== 'object' || typeof (content as { publicKey?: unknown }).publicKey !== 'string') {
    throw new Error('The push key does not match its contract');
  }
  return (content as { publicKey: string }).publicKey;
}
