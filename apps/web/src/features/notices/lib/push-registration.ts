import { browserStore } from '../../../lib/storage.ts';
import { getPushKey } from '../api/get-push-key.ts';
import { registerPushToken } from '../api/register-push-token.ts';
import { base64UrlToBytes, deviceIdFrom, deviceNameFrom } from './push-device.ts';

/** The only trace of a refused permission. */
export const PERMISSION_DENIED_LOG = 'Unable to get permission to notify.';
/** The service worker that shows pushes when no tab is focused (`public/sw.js`, scope `/`). */
export const SERVICE_WORKER_URL = '/sw.js';

function isPushSupported(): boolean {
  return (
    typeof window !== 'undefined' && 'Notification' in window && 'serviceWorker' in navigator && 'PushManager' in window
  );
}

function sameKey(current: ArrayBuffer | null | undefined, wanted: Uint8Array): boolean {
  if (!current) return false;
  const bytes = new Uint8Array(current);
  return bytes.length === wanted.length && bytes.every((byte, index) => byte === wanted[index]);
}

/**
 * After self-load: ask for notification permission; when granted, register the service
 * worker, subscribe with the server's VAPID key and send the subscription to the server.
 * When refused, log {@link PERMISSION_DENIED_LOG} and do nothing else. Every
 * other failure (no push service, no key, a refused subscription, the server) is only logged:
 * push is a convenience and never interrupts the user.
 */
export async function registerForPush(): Promise<void> {
  if (!isPushSupported()) {
    console.log('Push notifications are not supported in this browser.');
    return;
  }
  const permission =
    Notification.permission === 'default' ? await Notification.requestPermission() : Notification.permission;
  if (permission !== 'granted') {
    console.log(PERMISSION_DENIED_LOG);
    return;
  }
  try {
    await navigator.serviceWorker.register(SERVICE_WORKER_URL, { scope: '/' });
    const publicKey = await getPushKey();
    if (!publicKey) {
      console.log('Push notifications are not configured on the server.');
      return;
    }
    const applicationServerKey = base64UrlToBytes(publicKey);
    const registration = await navigator.serviceWorker.ready;
    let subscription = await registration.pushManager.getSubscription();
    // A subscription made with another key (the server's keys changed) can no longer receive pushes.
    if (subscription && !sameKey(subscription.options.applicationServerKey, applicationServerKey)) {
      await subscription.unsubscribe();
      subscription = null;
    }
    subscription ??= await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey });
    await registerPushToken(
      { token: JSON.stringify(subscription.toJSON()), platform: 'WEB', deviceId: deviceIdFrom(browserStore()) },
      deviceNameFrom(navigator.userAgent),
    );
  } catch (error) {
    console.log('Push registration failed:', error);
  }
}

/** The users this tab has registered for push, so a re-render or a remount does not ask again. */
const registeredUserIds = new Set<string>();

/** Register for push once per user per page load. */
export function registerForPushOnce(userId: string): void {
  if (registeredUserIds.has(userId)) return;
  registeredUserIds.add(userId);
  void registerForPush();
}
