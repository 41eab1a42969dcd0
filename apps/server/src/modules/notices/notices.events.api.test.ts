import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  mutationHeaders,
  randomTestIp,
  registerAndLogin,
  sensitiveCode,
  solveHumanCheck,
  type TestApp,
  type TestSession,
} from '../../../test/helpers.ts';
import { seedDemo } from '../../seed.ts';
import { custodyWebhookBodySchema } from '@meridian/contracts/wallet';

/**
 * The events that message a user now: sign-in from a new device, a security setting
 * changed, a deposit credited, a withdrawal's status changed — each written in the user's language.
 */
describe('event messages', () => {
  let t: TestApp;
  let session: TestSession;

  /** `category:title` of the user's messages, read in `lang` (messages render in the reader's language). */
  const titles = async (lang = 'en-US') => {
    const list = (
      await t.app.inject({
        method: 'GET',
        url: '/api/notice/message/list?pageSize=50',
        headers: { cookie: session.cookie, 'User-Lang': lang },
      })
    ).json().content;
    return list.list.map((message: { title: string; category: string }) => `${message.category}:${message.title}`);
  };

  beforeAll(async () => {
    t = await createTestApp();
    await seedDemo(t.database.db);
    session = await registerAndLogin(t.app);
  });
  afterAll(async () => t.close());

  it('lists a sign-in from a new device, not the first sign-in', async () => {
    expect(await titles()).not.toContain('ACCOUNT:Sign-in from a new device');
    const remoteAddress = randomTestIp();
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/user/login',
      headers: mutationHeaders({ 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0' }),
      payload: { email: session.email, password: session.password, token: await solveHumanCheck(t.app, remoteAddress) },
      remoteAddress,
    });
    expect(login.json().statusCode).toBe(200);
    expect(await titles()).toContain('ACCOUNT:Sign-in from a new device');
    const list = (
      await t.app.inject({ method: 'GET', url: '/api/notice/message/list', headers: { cookie: session.cookie } })
    ).json().content;
    expect(list.list.find((m: { category: string }) => m.category === 'ACCOUNT').body).toMatch(
      /^From Firefox · Linux \(IP 10\./,
    );
  });

  it('messages a security setting change, and nothing for a refused one', async () => {
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/user/config/switch',
      headers: session.headers,
      payload: { scope: 'login', factor: 'email', isEnabled: true },
    });
    expect(refused.json().statusCode).toBe(120);
    expect(await titles()).not.toContain('SECURITY:Security settings changed');
    const emailCaptcha = await sensitiveCode(t.app, session, 'CONFIG_SWITCH');
    const switched = await t.app.inject({
      method: 'POST',
      url: '/api/user/config/switch',
      headers: { ...session.headers, 'User-Lang': 'zh-HK' },
      payload: { scope: 'login', factor: 'email', isEnabled: true, emailCaptcha },
    });
    expect(switched.json().statusCode).toBe(200);
    // Read in the reader's language, whatever the language it was written in.
    expect(await titles('zh-HK')).toContain('SECURITY:安全設定已更改');
    expect(await titles('en-US')).toContain('SECURITY:Security settings changed');
    // Back to English for the messages below.
    await t.app.inject({
      method: 'GET',
      url: '/api/notice/message/list',
      headers: { cookie: session.cookie, 'User-Lang': 'en-US' },
    });
  });

  it('messages a credited deposit, once, in the amount credited', async () => {
    const { address } = await t.app.wallet.depositAddress(session.userId, 'USDT', 'TRC20');
    const event = {
      type: 'deposit' as const,
      network: 'TRC20',
      coin: 'USDT' as const,
      address,
      txHash: `tx-${randomUUID()}`,
      outputIndex: 0,
      amount: '250',
      confirmations: 25,
    };
    await t.app.wallet.handleCustodyDelivery(
      custodyWebhookBodySchema.parse({ deliveryId: randomUUID(), sentAt: t.app.clock.now().toISOString(), event }),
    );
    await t.app.wallet.handleCustodyDelivery(
      custodyWebhookBodySchema.parse({
        deliveryId: randomUUID(),
        sentAt: t.app.clock.now().toISOString(),
        event: { ...event, confirmations: 30 },
      }),
    );
    const deposits = (await titles()).filter((title: string) => title === 'DEPOSIT:Deposit credited');
    expect(deposits).toHaveLength(1);
    const list = (
      await t.app.inject({ method: 'GET', url: '/api/notice/message/list', headers: { cookie: session.cookie } })
    ).json().content;
    expect(list.list.find((m: { category: string }) => m.category === 'DEPOSIT').body).toBe(
      '250.00 USDT has been credited to your wallet.',
    );
  });

  it('messages each status a withdrawal moves to (here: cancelled by the user)', async () => {
    await t.app.identity.setKycLevel(session.userId, 1);
    const request = await t.app.inject({
      method: 'POST',
      url: '/api/wallet/withdraw',
      headers: { ...session.headers, 'api-version': '2.0', 'Idempotency-Key': randomUUID() },
      payload: {
        coin: 'USDT',
        network: 'TRC20',
        address: 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL',
        amount: '50',
        emailCaptcha: await sensitiveCode(t.app, session, 'WITHDRAW'),
      },
    });
    expect(request.json().statusCode).toBe(200);
    const cancelled = await t.app.inject({
      method: 'POST',
      url: `/api/wallet/withdraw/${request.json().content.id}/cancel`,
      headers: session.headers,
    });
    expect(cancelled.json().statusCode).toBe(200);
    const list = (
      await t.app.inject({ method: 'GET', url: '/api/notice/message/list', headers: { cookie: session.cookie } })
    ).json().content;
    const withdrawal = list.list.find((m: { category: string }) => m.category === 'WITHDRAW');
    expect(withdrawal).toMatchObject({
      title: 'Withdrawal cancelled',
      body: 'Your withdrawal of 50.00 USDT is now cancelled.',
      link: '/my/order/wallet/withdraw',
    });
  });
});
