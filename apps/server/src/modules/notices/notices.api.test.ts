import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { noticeMessages } from './notices.tables.ts';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerAndLogin, type TestApp, type TestSession } from '../../../test/helpers.ts';
import type { NotifyInput } from './notices.service.ts';

/** Message centre through the real app, as two signed-in users (real registration and sessions). */
const depositNotice = (userId: string, n: number): NotifyInput => ({
  userId,
  category: 'DEPOSIT',
  title: { 'en-US': 'Deposit credited', 'zh-HK': '充值已到帳' },
  body: { 'en-US': 'Your deposit #{n} of 250.00 USDT arrived', 'zh-HK': '你的第 {n} 筆 250.00 USDT 充值已到帳' },
  params: { n },
  link: '/my/order/wallet/deposit',
});

describe('message centre API', () => {
  let t: TestApp;
  let aliceSession: TestSession;
  let bobSession: TestSession;
  let alice: string;
  let bob: string;
  /** Headers of a GET as `userId`. */
  const as = (userId: string) => ({ cookie: (userId === alice ? aliceSession : bobSession).cookie });
  /** Headers of a state-changing call as `userId`. */
  const post = (userId: string) => (userId === alice ? aliceSession : bobSession).headers;

  beforeAll(async () => {
    t = await createTestApp();
    aliceSession = await registerAndLogin(t.app);
    bobSession = await registerAndLogin(t.app);
    alice = aliceSession.userId;
    bob = bobSession.userId;
    // Registration and sign-in may have written their own messages; start from none.
    await t.app.notices.markAllRead(alice);
    await t.database.db.delete(noticeMessages);
    for (let n = 1; n <= 12; n += 1) await t.app.notices.notify(depositNotice(alice, n));
    await t.app.notices.notify(depositNotice(bob, 1));
  });
  afterAll(async () => t.close());

  it('reads each message in the reader’s language, whatever the language it was written in', async () => {
    // Written while bob used English (the registration default) …
    const written = await t.app.notices.notify(depositNotice(bob, 7));
    expect(written).toMatchObject({ title: 'Deposit credited' });
    // … and a row from before templates were kept: it shows its stored copy in every language.
    const legacyId = randomUUID();
    await t.database.db
      .insert(noticeMessages)
      .values({ id: legacyId, userId: bob, category: 'SYSTEM', title: 'Old title', body: 'Old body' });
    const read = async (lang: string) =>
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/notice/message/list',
          headers: { ...as(bob), 'user-lang': lang },
        })
      ).json().content.list as { id: string; title: string; body: string }[];
    const zh = await read('zh-HK');
    expect(zh.find((m) => m.id === written!.id)).toMatchObject({
      title: '充值已到帳',
      body: '你的第 7 筆 250.00 USDT 充值已到帳',
    });
    expect(zh.find((m) => m.id === legacyId)).toMatchObject({ title: 'Old title', body: 'Old body' });
    const en = await read('en-US');
    expect(en.find((m) => m.id === written!.id)).toMatchObject({
      title: 'Deposit credited',
      body: 'Your deposit #7 of 250.00 USDT arrived',
    });
    // The audit copy keeps what was rendered at creation.
    const [stored] = await t.database.db.select().from(noticeMessages).where(eq(noticeMessages.id, written!.id));
    expect(stored).toMatchObject({ title: 'Deposit credited', template: { params: { n: 7 } } });
    await t.database.db.delete(noticeMessages).where(eq(noticeMessages.userId, bob));
    await t.app.notices.notify(depositNotice(bob, 1));
  });

  it('refuses a guest with 101', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/notice/message/list' });
    expect(response.json().statusCode).toBe(101);
  });

  it('pages the list newest first with unread and total counts', async () => {
    const first = (
      await t.app.inject({ method: 'GET', url: '/api/notice/message/list?pageID=1&pageSize=5', headers: as(alice) })
    ).json().content;
    expect(first).toMatchObject({ unreadCount: 12, totalCount: 12, totalPage: 3, pageID: 1, pageSize: 5 });
    expect(first.list).toHaveLength(5);
    expect(first.list[0]).toMatchObject({
      status: 'unread',
      title: 'Deposit credited',
      body: 'Your deposit #12 of 250.00 USDT arrived',
      category: 'DEPOSIT',
    });
    const last = (
      await t.app.inject({ method: 'GET', url: '/api/notice/message/list?pageID=3&pageSize=5', headers: as(alice) })
    ).json().content;
    expect(last.list.map((m: { body: string }) => m.body)).toEqual([
      'Your deposit #2 of 250.00 USDT arrived',
      'Your deposit #1 of 250.00 USDT arrived',
    ]);
    const defaults = (await t.app.inject({ method: 'GET', url: '/api/notice/message/list', headers: as(alice) })).json()
      .content;
    expect(defaults.pageSize).toBe(10);
  });

  it('bounds the page size and names the field', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/notice/message/list?pageSize=1000',
      headers: as(alice),
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().content.fields[0].field).toBe('pageSize');
  });

  it('lowers the unread count once per real change and never for a read message', async () => {
    const list = (await t.app.inject({ method: 'GET', url: '/api/notice/message/list', headers: as(alice) })).json()
      .content;
    const id = list.list[0].id;
    const read = await t.app.inject({ method: 'POST', url: `/api/notice/message/${id}/read`, headers: post(alice) });
    expect(read.json().content).toEqual({ unreadCount: 11 });
    const again = await t.app.inject({ method: 'POST', url: `/api/notice/message/${id}/read`, headers: post(alice) });
    expect(again.json().content).toEqual({ unreadCount: 11 });
    const after = (await t.app.inject({ method: 'GET', url: '/api/notice/message/list', headers: as(alice) })).json()
      .content;
    expect(after.list[0].status).toBe('read');
  });

  it("answers 404 for another user's message and changes nothing", async () => {
    const bobList = (await t.app.inject({ method: 'GET', url: '/api/notice/message/list', headers: as(bob) })).json()
      .content;
    const bobMessage = bobList.list[0].id;
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/notice/message/${bobMessage}/read`,
      headers: post(alice),
    });
    expect(response.statusCode).toBe(404);
    expect(response.json().statusCode).toBe(104);
    const bobAfter = (await t.app.inject({ method: 'GET', url: '/api/notice/message/list', headers: as(bob) })).json()
      .content;
    expect(bobAfter.unreadCount).toBe(1);
    const malformed = await t.app.inject({
      method: 'POST',
      url: '/api/notice/message/not-a-uuid/read',
      headers: post(alice),
    });
    expect(malformed.json().content.fields[0].field).toBe('id');
  });

  it('reads all: the count becomes 0 and other users are untouched', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/notice/message/readAll', headers: post(alice) });
    expect(response.json().content).toEqual({ unreadCount: 0 });
    const list = (
      await t.app.inject({ method: 'GET', url: '/api/notice/message/list?pageSize=100', headers: as(alice) })
    ).json().content;
    expect(list.list.every((m: { status: string }) => m.status === 'read')).toBe(true);
    const bobList = (await t.app.inject({ method: 'GET', url: '/api/notice/message/list', headers: as(bob) })).json()
      .content;
    expect(bobList.unreadCount).toBe(1);
  });

  it('stores a push subscription and refuses a malformed one naming the field', async () => {
    const subscription = {
      endpoint: 'https://push.example/send/abc',
      keys: { p256dh: 'BOr'.padEnd(87, 'A'), auth: 'c2VjcmV0c2VjcmV0c2VjcmV0' },
    };
    const deviceId = `pro-web-${randomUUID()}`;
    const stored = await t.app.inject({
      method: 'POST',
      url: '/api/notice/fcm/token',
      headers: { ...post(alice), deviceName: 'Chrome on Mac' },
      payload: { token: JSON.stringify(subscription), platform: 'WEB', deviceId },
    });
    expect(stored.json().statusCode).toBe(200);
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/notice/fcm/token',
      headers: { ...post(alice), 'User-Lang': 'zh-HK' },
      payload: { token: 'not json', platform: 'WEB', deviceId },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().content.fields).toEqual([{ field: 'token', message: '推送訂閱無效' }]);
    const badDevice = await t.app.inject({
      method: 'POST',
      url: '/api/notice/fcm/token',
      headers: post(alice),
      payload: { token: JSON.stringify(subscription), platform: 'WEB', deviceId: 'phone' },
    });
    expect(badDevice.json().content.fields[0].field).toBe('deviceId');
  });

  it('publishes the VAPID public key', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/notice/push/key' });
    expect(response.json().content.publicKey).toMatch(/^[A-Za-z0-9_-]{80,}$/);
  });

  it('streams a new message to the open tab of its user only', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const controller = new AbortController();
    const response = await fetch(`http://127.0.0.1:${port}/api/notice/stream`, {
      headers: as(bob),
      signal: controller.signal,
    });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let received = '';
    const arrival = (async () => {
      while (!received.includes('event: message')) {
        const { value, done } = await reader.read();
        if (done) break;
        received += decoder.decode(value);
      }
    })();
    await t.app.notices.notify(depositNotice(alice, 99));
    await t.app.notices.notify(depositNotice(bob, 2));
    await arrival;
    controller.abort();
    const data = JSON.parse(received.split('event: message\ndata: ')[1]!.split('\n')[0]!);
    expect(data.message.body).toBe('Your deposit #2 of 250.00 USDT arrived');
    expect(data.unreadCount).toBe(2);
    expect(received).not.toContain('#99');
  });

  it('writes a streamed message in the language each tab shows: zh-HK for one, the account’s en-US for another', async () => {
    if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const controller = new AbortController();
    /** Opens a tab's stream and resolves with its first message event's data. */
    const firstMessage = async (query: string) => {
      const response = await fetch(`http://127.0.0.1:${port}/api/notice/stream${query}`, {
        headers: as(bob),
        signal: controller.signal,
      });
      const reader = response.body!.getReader();
      const decoder = new TextDecoder();
      let received = '';
      // The stream is attached once its first line (the retry hint) arrives.
      while (!received.includes('retry:')) received += decoder.decode((await reader.read()).value);
      return async () => {
        while (!received.includes('event: message')) {
          const { value, done } = await reader.read();
          if (done) break;
          received += decoder.decode(value);
        }
        return JSON.parse(received.split('event: message\ndata: ')[1]!.split('\n')[0]!);
      };
    };
    const chinese = await firstMessage('?lang=zh-HK');
    const english = await firstMessage('');
    const unknown = await firstMessage('?lang=xx-XX');
    await t.app.notices.notify(depositNotice(bob, 7));
    const [zh, en, fallback] = await Promise.all([chinese(), english(), unknown()]);
    controller.abort();
    expect(zh.message.body).toBe('你的第 7 筆 250.00 USDT 充值已到帳');
    expect(en.message.body).toBe('Your deposit #7 of 250.00 USDT arrived');
    // A language the app does not have falls back to the account's.
    expect(fallback.message.body).toBe('Your deposit #7 of 250.00 USDT arrived');
    expect(zh.unreadCount).toBe(en.unreadCount);
  });
});
