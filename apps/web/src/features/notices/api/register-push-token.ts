import { HEADER_DEVICE_NAME, noticeEndpoints, type PushTokenBody } from '@meridian/contracts/notices';
import { callEndpoint, unwrap } from '../../../lib/api-client.ts';

/**
 * `POST /api/notice/fcm/token` (silent; descriptor `noticeEndpoints.savePushToken`): stores this browser's Web Push subscription
 * (`token`, its JSON) for the signed-in user, with the device name in a header. Used by the push
 * registration after sign-in, so it has no mutation hook.
 */
export async function registerPushToken(body: PushTokenBody, deviceName: string): Promise<void> {
  unwrap(
    await callEndpoint(
      noticeEndpoints.savePushToken,
      { body },
      { silent: true, headers: { [HEADER_DEVICE_NAME]: deviceName } },
    ),
  );
}
