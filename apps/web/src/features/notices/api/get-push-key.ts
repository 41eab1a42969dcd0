import { apiClient, unwrap } from '../../../lib/api-client.ts';
import { NOTICE_BASE_PATH } from './notice-api.ts';

/**
 * `GET /api/notice/push/key`: the VAPID public key (base64url) browsers subscribe with, or null when
 * the server sends no push. Read once per sign-in by the push registration, so it has no query hook.
 */
export async function getPushKey(): Promise<string | null> {
  const content: unknown = unwrap(await apiClient.get<{ publicKey: string } | null>('push/key', { basePath: NOTICE_BASE_PATH, skipLoginRedirect: true }));
  if (content === null) return null;
  if (typeof content !== 'object' || typeof (content as { publicKey?: unknown }).publicKey !== 'string') {
    throw new Error('The push key does not match its contract');
  }
  return (content as { publicKey: string }).publicKey;
}
