import type { KeyValueStore } from '../../../lib/storage.ts';

/**
 * How this browser names itself when it registers for push (the push token's device id, and a device name under 16
 * characters). The device id is kept across sign-ins and sign-outs: it names the browser, not the user.
 */
export const DEVICE_ID_STORAGE_KEY = 'meridian.pushDeviceId';
export const DEVICE_ID_PREFIX = 'pro-web-';
/** The device name is under 16 characters. */
export const DEVICE_NAME_LENGTH_MAX = 15;

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A random version-4 UUID, in lower case as the contract's device id expects. */
export function randomUuid(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  // randomUUID exists only in secure contexts; getRandomValues everywhere.
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** `pro-web-{uuid}`: the stored one, or a new one that is stored for next time. */
export function deviceIdFrom(store: KeyValueStore, newUuid: () => string = randomUuid): string {
  const stored = store.getItem(DEVICE_ID_STORAGE_KEY);
  if (stored && stored.startsWith(DEVICE_ID_PREFIX) && UUID_PATTERN.test(stored.slice(DEVICE_ID_PREFIX.length)))
    return stored;
  const deviceId = `${DEVICE_ID_PREFIX}${newUuid().toLowerCase()}`;
  store.setItem(DEVICE_ID_STORAGE_KEY, deviceId);
  return deviceId;
}

/**
 * Browser names, most specific first: Edge, Opera and Samsung Internet also say "Chrome" in their
 * user agent, and Chrome also says "Safari".
 */
const BROWSERS: readonly (readonly [RegExp, string])[] = [
  [/\bEdg(e|A|iOS)?\//, 'Edge'],
  [/\b(OPR|Opera)\//, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Browser'],
  [/\b(Firefox|FxiOS)\//, 'Firefox'],
  [/\b(Chrome|Chromium|CriOS)\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];

/** The browser's name for the `deviceName` header: ASCII, under 16 characters. */
export function deviceNameFrom(userAgent: string): string {
  const name = BROWSERS.find(([pattern]) => pattern.test(userAgent))?.[1] ?? 'Web browser';
  return name.slice(0, DEVICE_NAME_LENGTH_MAX);
}

/** A base64url key (the VAPID public key) as the bytes PushManager.subscribe expects. */
export function base64UrlToBytes(base64Url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64Url
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(base64Url.length / 4) * 4, '=');
  const binary = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return bytes;
}
