import type { Agent } from 'node:https';
import webPush from 'web-push';
import { readOrCreateSecretFile } from '../security/secrets.ts';

/** VAPID key pair (RFC 8292), base64url-encoded as the web-push library and browsers use them. */
export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

/**
 * Read the VAPID keys kept in `dataDir/secrets/vapid.json`, or generate and keep a new pair
 * (generated when not configured).
 */
export function readOrCreateVapidKeys(dataDir: string): VapidKeys {
  const text = readOrCreateSecretFile(dataDir, 'vapid.json', () => JSON.stringify(webPush.generateVAPIDKeys()));
  return JSON.parse(text) as VapidKeys;
}

/** A subscription's endpoint and keys (the browser's PushSubscription JSON). */
export interface PushTarget {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

/** Outcome of one push: `gone` means the endpoint answered 404/410 and should be forgotten. */
export type PushOutcome = 'sent' | 'gone' | 'failed';

export interface PushSender {
  readonly publicKey: string;
  send(target: PushTarget, payload: string): Promise<PushOutcome>;
}

/** Time a push service keeps an undelivered message. */
const PUSH_TTL_SECONDS = 24 * 60 * 60;
const PUSH_TIMEOUT_MS = 5000;

/**
 * Web Push sender (RFC 8030 delivery, RFC 8291 aes128gcm payload encryption, RFC 8292 VAPID),
 * through the `web-push` library. `options.agent` lets a caller trust a private CA (tests).
 */
export function createWebPushSender(keys: VapidKeys, subject: string, options: { agent?: Agent } = {}): PushSender {
  return {
    publicKey: keys.publicKey,
    async send(target, payload) {
      try {
        await webPush.sendNotification(target, payload, {
          vapidDetails: { subject, publicKey: keys.publicKey, privateKey: keys.privateKey },
          TTL: PUSH_TTL_SECONDS,
          timeout: PUSH_TIMEOUT_MS,
          contentEncoding: 'aes128gcm',
          ...(options.agent ? { agent: options.agent } : {}),
        });
        return 'sent';
      } catch (error) {
        const status = (error as { statusCode?: number }).statusCode;
        return status === 404 || status === 410 ? 'gone' : 'failed';
      }
    },
  };
}
