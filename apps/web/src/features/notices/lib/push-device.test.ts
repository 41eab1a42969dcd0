import { describe, expect, it } from 'vitest';
import type { KeyValueStore } from '../../../lib/storage.ts';
import { base64UrlToBytes, DEVICE_ID_STORAGE_KEY, deviceIdFrom, deviceNameFrom } from './push-device.ts';

function memoryStore(initial: Record<string, string> = {}): KeyValueStore & { values: Map<string, string> } {
  const values = new Map(Object.entries(initial));
  return {
    values,
    getItem: (key) => values.get(key) ?? null,
    setItem: (key, value) => void values.set(key, value),
    removeItem: (key) => void values.delete(key),
  };
}

/** Push token: deviceId pro-web-{uuid}, kept in the browser; device name under 16 characters. */
describe('push device identity', () => {
  it('makes a pro-web-{uuid} device id once and keeps it', () => {
    const store = memoryStore();
    const deviceId = deviceIdFrom(store, () => '0F8FAD5B-D9CB-469F-A165-70867728950E');
    expect(deviceId).toBe('pro-web-0f8fad5b-d9cb-469f-a165-70867728950e');
    expect(store.values.get(DEVICE_ID_STORAGE_KEY)).toBe(deviceId);
    expect(deviceIdFrom(store, () => 'never-used')).toBe(deviceId);
  });

  it('replaces a stored id that is not of the contract form', () => {
    const store = memoryStore({ [DEVICE_ID_STORAGE_KEY]: 'pro-web-nonsense' });
    expect(deviceIdFrom(store, () => '7c9e6679-7425-40de-944b-e07fc1f90ae7')).toBe(
      'pro-web-7c9e6679-7425-40de-944b-e07fc1f90ae7',
    );
  });

  it('names the browser in under 16 characters', () => {
    const agents = {
      Chrome: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      Edge: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
      Firefox: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.1; rv:133.0) Gecko/20100101 Firefox/133.0',
      Safari:
        'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
      'Samsung Browser':
        'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36',
      'Web browser': 'curl/8.0',
    };
    for (const [name, agent] of Object.entries(agents)) {
      expect(deviceNameFrom(agent)).toBe(name);
      expect(deviceNameFrom(agent).length).toBeLessThan(16);
    }
  });

  it('decodes a base64url VAPID key to its bytes', () => {
    expect(Array.from(base64UrlToBytes('AQID_-8'))).toEqual([1, 2, 3, 255, 239]);
  });
});
