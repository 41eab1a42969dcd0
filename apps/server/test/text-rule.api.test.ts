import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, mutationHeaders, registerAndLogin, sensitiveCode, type TestApp } from './helpers.ts';
import { signCustodyBody } from '../src/modules/wallet/wallet.routes.ts';
import { seedWallet } from '../src/modules/wallet/wallet.seed.ts';

/**
 * Issue 14 item 1: a NUL byte (or any other control character, or a lone surrogate) in any string
 * that enters through a contract is a 422 field error in the caller's language, never a 500, and
 * consumes nothing (the email code stays usable). The rule is `contracts/text.ts`, applied by the
 * validator compiler to every body, query string, params and declared header.
 */
const SECRET = 'custody-test-secret-'.padEnd(48, 'x');
const EXTERNAL_TRON = 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL';
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ env: { CUSTODY_WEBHOOK_SECRET: SECRET } });
  await seedWallet(t.database.db);
});
afterAll(async () => t.close());

function expectFieldError(
  response: {
    statusCode: number;
    json(): { statusCode: number; content: { fields: { field: string; message: string }[] } };
  },
  field: string,
  message: RegExp,
) {
  expect(response.statusCode).toBe(422);
  const body = response.json();
  expect(body.statusCode).toBe(120);
  expect(body.content.fields).toContainEqual({ field, message: expect.stringMatching(message) });
}

describe('the text rule at the edge', () => {
  it('refuses NUL in a query string (wallet/address?net=) with a field error in the user language', async () => {
    const session = await registerAndLogin(t.app);
    for (const net of ['TRC20%00', '%00', 'TRC%0120', 'TRC20%C2%85', 'TRC20%0A']) {
      const en = await t.app.inject({
        method: 'GET',
        url: `/api/wallet/address?coin=USDT&net=${net}`,
        headers: { cookie: session.cookie },
      });
      expectFieldError(en, 'net', /control character/);
    }
    const zh = await t.app.inject({
      method: 'GET',
      url: '/api/wallet/address?coin=USDT&net=TRC20%00',
      headers: { cookie: session.cookie, 'user-lang': 'zh-HK' },
    });
    expectFieldError(zh, 'net', /控制字元/);
  });

  it('refuses NUL in an address-book label without using up the email code', async () => {
    const session = await registerAndLogin(t.app);
    const emailCaptcha = await sensitiveCode(t.app, session, 'WITHDRAW_ADDRESS_ADD');
    const add = (label: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/wallet/addressbook',
        headers: session.headers,
        payload: { emailCaptcha, label, network: 'TRC20', address: EXTERNAL_TRON },
      });
    expectFieldError(await add('My\u0000wallet'), 'label', /control character/);
    expectFieldError(await add('lone \ud800 surrogate'), 'label', /control character/);
    const ok = await add('My wallet');
    expect(ok.json().statusCode).toBe(200);
  });

  it('refuses NUL in a withdrawal network and in a key of the body', async () => {
    const session = await registerAndLogin(t.app);
    await t.app.identity.setKycLevel(session.userId, 1);
    const emailCaptcha = await sensitiveCode(t.app, session, 'WITHDRAW');
    const post = (payload: Record<string, unknown>) =>
      t.app.inject({
        method: 'POST',
        url: '/api/wallet/withdraw',
        headers: { ...session.headers, 'api-version': '2.0' },
        payload,
      });
    expectFieldError(
      await post({ emailCaptcha, coin: 'USDT', network: 'TRC20\u0000', address: EXTERNAL_TRON, amount: '10' }),
      'network',
      /control character/,
    );
    expectFieldError(
      await post({ emailCaptcha, coin: 'USDT', network: 'TRC20', address: EXTERNAL_TRON, amount: '10', 'x\u0000': 1 }),
      'x\u0000',
      /control character/,
    );
    // Nothing was consumed: the same code still passes the security check (the withdrawal is then refused for the balance).
    const after = await post({ emailCaptcha, coin: 'USDT', network: 'TRC20', address: EXTERNAL_TRON, amount: '10' });
    expect(after.json().statusCode).not.toBe(119);
    expect(after.statusCode).toBeLessThan(500);
  });

  it('refuses NUL in every text field of the custody webhook (signed) with 422, never 500', async () => {
    const event = {
      type: 'deposit',
      network: 'TRC20',
      coin: 'USDT',
      address: EXTERNAL_TRON,
      txHash: `tx-${randomUUID()}`,
      outputIndex: 0,
      amount: '12',
      confirmations: 20,
    };
    const fields: string[] = [
      'deliveryId',
      'sentAt',
      'event.type',
      'event.network',
      'event.coin',
      'event.address',
      'event.txHash',
      'event.amount',
    ];
    for (const field of fields) {
      const body: Record<string, unknown> = {
        deliveryId: `d-${randomUUID()}`,
        sentAt: t.app.clock.now().toISOString(),
        event: { ...event },
      };
      const [head, tail] = field.split('.');
      if (tail) (body.event as Record<string, string>)[tail] += '\u0000';
      else body[head!] = `${String(body[head!])}\u0000`;
      const raw = JSON.stringify(body);
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/custody/webhook',
        headers: { 'content-type': 'application/json', 'x-custody-signature': signCustodyBody(SECRET, raw) },
        payload: raw,
      });
      expect(response.statusCode, field).toBe(422);
      expect(
        response.json().content.fields.map((f: { field: string }) => f.field),
        field,
      ).toContain(field);
    }
  });

  it('refuses control characters on a sign-in body before anything else runs', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/user/login',
      headers: mutationHeaders(),
      payload: { email: 'a\u0000@example.com', password: 'x\u0007', token: 't' },
    });
    expect(response.statusCode).toBe(422);
    const fields = response.json().content.fields.map((f: { field: string }) => f.field);
    expect(fields).toEqual(expect.arrayContaining(['email', 'password']));
  });
});

describe('a too-long string (issue 14 item 9a)', () => {
  it('a 255-character password at sign-in says it is too long, in both languages', async () => {
    const payload = { email: 'someone@example.com', password: 'p'.repeat(255), token: 't' };
    const en = await t.app.inject({ method: 'POST', url: '/api/user/login', headers: mutationHeaders(), payload });
    expectFieldError(en, 'password', /too long \(at most \d+ characters\)/);
    const zh = await t.app.inject({
      method: 'POST',
      url: '/api/user/login',
      headers: mutationHeaders({ 'user-lang': 'zh-HK' }),
      payload,
    });
    expectFieldError(zh, 'password', /過長/);
  });
});
