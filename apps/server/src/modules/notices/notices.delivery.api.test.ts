import { systemClock } from '../../platform/clock/clock.ts';
import { createECDH, createDecipheriv, createPublicKey, hkdfSync, randomBytes, randomUUID, verify } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import webPush from 'web-push';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import {
  createTestApp,
  createTestDatabase,
  registerAndLogin,
  TEST_SESSION_SECRET,
  testDatabaseKind,
} from '../../../test/helpers.ts';
import { buildApp } from '../../app.ts';
import { openDatabase } from '../../platform/db/client.ts';
import type { Database } from '../../platform/db/client.ts';
import { createWebPushSender } from '../../platform/push/web-push.ts';
import { SseHub } from '../../platform/realtime/sse-hub.ts';
import { NoticeService, type NotifyInput } from './notices.service.ts';
import { noticeMessages, pushSubscriptions } from './notices.tables.ts';

/**
 * Delivery outside the page: Web Push to a local push service that decrypts the payload with the
 * subscription's keys (RFC 8291 aes128gcm) and checks the VAPID JWT (RFC 8292); an endpoint that
 * answers 410 is forgotten; and, on PostgreSQL, a message created through one server reaches the
 * stream of another server sharing the database (LISTEN/NOTIFY fan-out).
 */
const log = pino({ level: 'silent' });
const b64url = (buffer: Buffer) => buffer.toString('base64url');

interface ReceivedPush {
  path: string;
  authorization: string;
  body: Buffer;
}

/** A push service on https://127.0.0.1 with a self-signed certificate the sender is told to trust. */
async function startPushService(statusFor: (path: string) => number) {
  const dir = mkdtempSync(join(tmpdir(), 'meridian-push-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
    ],
    { stdio: 'ignore' },
  );
  const cert = readFileSync(join(dir, 'cert.pem'));
  const received: ReceivedPush[] = [];
  const waiters: (() => void)[] = [];
  const server: Server = createServer({ key: readFileSync(join(dir, 'key.pem')), cert }, (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        path: request.url ?? '',
        authorization: String(request.headers.authorization),
        body: Buffer.concat(chunks),
      });
      response.statusCode = statusFor(request.url ?? '');
      response.end();
      waiters.splice(0).forEach((resolve) => resolve());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    agent: new Agent({ ca: cert }),
    received,
    next: (count: number) =>
      new Promise<void>((resolve) => {
        const check = () => (received.length >= count ? resolve() : waiters.push(check));
        check();
      }),
    close: () => {
      server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Decrypt an aes128gcm body (RFC 8188 framing, RFC 8291 key derivation) as the browser would. */
function decryptPush(body: Buffer, uaPrivate: ReturnType<typeof createECDH>, authSecret: Buffer): string {
  const salt = body.subarray(0, 16);
  const idLength = body.readUInt8(20);
  const asPublic = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  const ecdhSecret = uaPrivate.computeSecret(asPublic);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), uaPrivate.getPublicKey(), asPublic]);
  const ikm = Buffer.from(hkdfSync('sha256', ecdhSecret, authSecret, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 0x02 followed by zero padding.
  const end = padded.lastIndexOf(2);
  return padded.subarray(0, end).toString('utf8');
}

/** Check `vapid t=<JWT>, k=<key>` (RFC 8292): ES256 signature by `publicKey`, audience, expiry, subject. */
function verifyVapid(authorization: string, publicKey: string, audience: string, subject: string): void {
  const match = /^vapid t=([^,]+), k=(.+)$/.exec(authorization);
  expect(match).not.toBeNull();
  const [, jwt, key] = match!;
  expect(key).toBe(publicKey);
  const [header, payload, signature] = jwt!.split('.');
  const raw = Buffer.from(publicKey, 'base64url');
  const jwk = { kty: 'EC', crv: 'P-256', x: b64url(raw.subarray(1, 33)), y: b64url(raw.subarray(33, 65)) };
  const isValid = verify(
    'sha256',
    Buffer.from(`${header}.${payload}`),
    { key: createPublicKey({ key: jwk, format: 'jwk' }), dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature!, 'base64url'),
  );
  expect(isValid).toBe(true);
  expect(JSON.parse(Buffer.from(header!, 'base64url').toString())).toMatchObject({ alg: 'ES256', typ: 'JWT' });
  const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
  expect(claims.aud).toBe(audience);
  expect(claims.sub).toBe(subject);
  expect(claims.exp * 1000).toBeGreaterThan(Date.now());
  expect(claims.exp * 1000).toBeLessThanOrEqual(Date.now() + 24 * 3600 * 1000);
}

const securityNotice = (userId: string): NotifyInput => ({
  userId,
  category: 'SECURITY',
  title: { 'en-US': 'New sign-in', 'zh-HK': '新的登入' },
  body: { 'en-US': 'Your account was signed in from {device}', 'zh-HK': '你的帳戶已在 {device} 登入' },
  params: { device: 'Chrome on Linux' },
});

describe('Web Push delivery', () => {
  let database: Database & { dispose(): Promise<void> };
  let push: Awaited<ReturnType<typeof startPushService>>;
  const vapid = webPush.generateVAPIDKeys();
  const subject = 'mailto:ops@meridian.example';
  const mails: string[] = [];
  let notices: NoticeService;

  beforeAll(async () => {
    database = await createTestDatabase();
    push = await startPushService((path) => (path.startsWith('/gone') ? 410 : 201));
    notices = new NoticeService({
      database,
      clock: systemClock,
      hub: new SseHub(),
      push: createWebPushSender(vapid, subject, { agent: push.agent }),
      recipientsOf: async (userIds) =>
        new Map(userIds.map((userId) => [userId, { locale: 'zh-HK' as const, email: 'alice@example.com' }])),
      mail: async (to, title) => {
        mails.push(`${to}:${title}`);
      },
      log,
    });
    await notices.start();
  });
  afterAll(async () => {
    await notices.stop();
    push.close();
    await database.dispose();
  });

  it('encrypts the message for the subscription, signs VAPID, emails an important category once, and forgets a gone endpoint', async () => {
    const userId = randomUUID();
    const ua = createECDH('prime256v1');
    ua.generateKeys();
    const authSecret = randomBytes(16);
    const keys = { p256dh: b64url(ua.getPublicKey()), auth: b64url(authSecret) };
    for (const path of ['/live/1', '/gone/2']) {
      await notices.saveSubscription(
        userId,
        {
          token: JSON.stringify({ endpoint: `${push.origin}${path}`, keys }),
          platform: 'WEB',
          deviceId: `pro-web-${randomUUID()}`,
        },
        'Chrome',
      );
    }

    const message = await notices.notify(securityNotice(userId));
    await push.next(2);

    const live = push.received.find((item) => item.path === '/live/1')!;
    const payload = JSON.parse(decryptPush(live.body, ua, authSecret));
    expect(payload).toEqual({
      id: message!.id,
      title: '新的登入',
      body: '你的帳戶已在 Chrome on Linux 登入',
      link: null,
    });
    verifyVapid(live.authorization, vapid.publicKey, push.origin, subject);

    // Delivery finishes after the pushes: wait until the gone endpoint is removed.
    for (let attempt = 0; attempt < 50; attempt += 1) {
      const rows = await database.db.select().from(pushSubscriptions);
      if (rows.length === 1) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const remaining = await database.db.select().from(pushSubscriptions);
    expect(remaining.map((row) => row.endpoint)).toEqual([`${push.origin}/live/1`]);
    expect(remaining[0]!.lastSuccessAt).not.toBeNull();
    expect(mails).toEqual(['alice@example.com:新的登入']);
  });
});

describe.skipIf(testDatabaseKind !== 'postgres')('fan-out between server processes on one PostgreSQL', () => {
  it('streams a message created through one server to a tab connected to another, and pushes it once', async () => {
    const first = await createTestApp();
    const session = await registerAndLogin(first.app);
    // The second server: its own connection pool and LISTEN connection to the same database.
    const secondDatabase = await openDatabase({ kind: 'postgres', url: first.database.url!, poolMax: 2 });
    const second = await buildApp({
      config: first.config,
      database: secondDatabase,
      sessionSecret: TEST_SESSION_SECRET,
      logger: false,
    });
    await second.listen({ port: 0, host: '127.0.0.1' });
    try {
      const { userId } = session;
      const { port } = second.server.address() as AddressInfo;
      const controller = new AbortController();
      const stream = await fetch(`http://127.0.0.1:${port}/api/notice/stream`, {
        headers: { cookie: session.cookie },
        signal: controller.signal,
      });
      const reader = stream.body!.getReader();
      let received = '';
      const arrival = (async () => {
        while (!received.includes('event: message')) {
          const { value, done } = await reader.read();
          if (done) break;
          received += new TextDecoder().decode(value);
        }
      })();
      const created = await first.app.notices.notify(securityNotice(userId));
      await arrival;
      controller.abort();
      expect(received).toContain(created!.id);
      expect(received).toContain('"unreadCount":1');
      // Both servers heard it; exactly one claims the delivery — after writing to the open tabs, so
      // the claim may commit a moment after the stream's message arrived.
      const deliveredAt = async () =>
        (await first.database.db.select().from(noticeMessages).where(eq(noticeMessages.id, created!.id)))[0]
          ?.deliveredAt ?? null;
      await expect.poll(deliveredAt, { timeout: 5_000, interval: 20 }).not.toBeNull();
    } finally {
      await second.close();
      await secondDatabase.close();
      await first.close();
    }
  });
});
