import type { HEADER_DEVICE_NAME, PushTokenBody } from '@meridian/contracts/notices';
import { apiClient, unwrap } from '../../../lib/api-client.ts';
import { NOTICE_BASE_PATH } from './notice-api.ts';

/** The contract's header name, checked against it at compile time without loading zod here. */
const DEVICE_NAME_HEADER = 'deviceName' satisfies typeof HEADER_DEVICE_NAME;

/**
 * `POST /api/notice/fcm/token` (spec §7, silent): stores this browser's Web Push subscription
 * (`token`, its JSON) for the signed-in user, with the device name in a header. Used by the push
 * registration after sign-in, so it has no mutation hook.
 */
export async function registerPushToken(body: PushTokenBody, deviceName: string): Promise<void> {
  unwrap(await apiClient.post<null>('fcm/token', body, { basePath: NOTICE_BASE_PATH, silent: true, headers: { [DEVICE_NAME_HEADER]: deviceName } }));
}
