import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  depositThroughCustody,
  readLatestCode,
  registerAndLogin,
  sensitiveCode,
  type TestApp,
  type TestSession,
} from '../../../test/helpers.ts';
import { systemClock } from '../../platform/clock/clock.ts';
import { signApiRequest } from '../../platform/security/request-signing.ts';
import { totpCode } from '../../platform/security/totp.ts';
import { seedWallet } from '../wallet/wallet.seed.ts';
import { isIpAllowed } from './apikeys.service.ts';

/**
 * The developer API (docs/api.md): keys created behind the authenticator check, shown once and kept as a
 * hash and a sealed secret; signed requests (bad signature, stale timestamp, replay), scopes, the
 * IP allowlist, withdrawals only to the address book, keys off with the authenticator, errors that
 * name the field in both languages, the OpenAPI marks, and `scripts/api-request.sh` against a
 * listening server.
 */
const CUSTODY_SECRET = 'custody-test-secret-'.padEnd(48, 'x');
const EXTERNAL_TRON = 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL';
const run = promisify(execFile);

let t: TestApp;
beforeAll(async () => {
  // A low per-key limit, so that the test reaches it in a few calls (each key here makes at most 3 counted calls otherwise).
  t = await createTestApp({ env: { CUSTODY_WEBHOOK_SECRET: CUSTODY_SECRET, API_KEY_REQUESTS_PER_MINUTE: '5' } });
  await seedWallet(t.database.db);
});
afterAll(async () => t.close());

interface Key {
  id: string;
  apiKey: string;
  secret: string;
}

/** A user with the authenticator bound, KYC level 1, no withdrawal hold. */
async function userWithAuthenticator(): Promise<TestSession & { totpSecret: string }> {
  const session = await registerAndLogin(t.app);
  const key = (
    await t.app.inject({ method: 'GET', url: '/api/user/config/mfa/key', headers: { cookie: session.cookie } })
  ).json().content;
  const bound = await t.app.inject({
    method: 'POST',
    url: '/api/user/config/mfa/key',
    headers: session.headers,
    payload: {
      mfaCode: totpCode(key.secret, t.app.clock.now().getTime()),
      emailCaptcha: await sensitiveCode(t.app, session, 'MFA_ADD'),
    },
  });
  expect(bound.json().statusCode).toBe(200);
  await t.app.identity.setKycLevel(session.userId, 1);
  await t.database.db.execute(sql`UPDATE users SET withdrawal_hold_until = NULL WHERE id = ${session.userId}`);
  return { ...session, totpSecret: key.secret };
}

/**
 * Create a key through the page's call (security check: email code + authenticator). The code of
 * the refused attempt just before is still unused, so it is read back instead of asking again
 * within the 59 s resend wait; the authenticator's next step is used (bind used the current one).
 */
async function createKey(session: TestSession & { totpSecret: string }, body: Record<string, unknown>) {
  return t.app.inject({
    method: 'POST',
    url: '/api/user/apiKeys',
    headers: session.headers,
    payload: {
      ...body,
      emailCaptcha: await readLatestCode(t.app, session.email, 'API_KEY_CREATE'),
      mfaCode: totpCode(session.totpSecret, t.app.clock.now().getTime() + 30_000),
    },
  });
}

/** More keys for the same user, made by the service (the security check is tested once above). */
async function directKey(
  userId: string,
  body: { label: string; scopes: ('read' | 'trade' | 'withdraw')[]; ipAllowlist?: string[] },
): Promise<Key> {
  const passed = {
    check: async () => {},
    consume: async () => {},
    verify: async () => {},
    answeredByReplay: () => {},
    isVerified: true,
  };
  return t.app.apiKeys.create(userId, { ipAllowlist: [], ...body }, passed, {
    ip: null,
    userAgent: null,
    locale: 'en-US',
    deviceId: null,
  });
}

/** A signed request with `key` (inject), as `scripts/api-request.sh` signs it. */
function signed(
  key: Key,
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  body?: unknown,
  options: { timestamp?: number; signature?: string; remoteAddress?: string; lang?: string } = {},
) {
  const raw = body === undefined ? '' : JSON.stringify(body);
  const timestamp = String(options.timestamp ?? t.app.clock.now().getTime());
  const signature =
    options.signature ?? signApiRequest(key.secret, { timestamp, method, requestTarget: url, body: raw });
  return t.app.inject({
    method,
    url,
    remoteAddress: options.remoteAddress ?? '127.0.0.1',
    headers: {
      'x-meridian-apikey': key.apiKey,
      'x-meridian-timestamp': timestamp,
      'x-meridian-signature': signature,
      'user-lang': options.lang ?? 'en-US',
      'api-version': '2.0',
      ...(raw ? { 'content-type': 'application/json' } : {}),
    },
    ...(raw ? { payload: raw } : {}),
  });
}

const deposit = (userId: string, amount: string) => depositThroughCustody(t.app, CUSTODY_SECRET, userId, amount);

describe('developer API keys', () => {
  let owner: TestSession & { totpSecret: string };
  let readKey: Key;

  it('creating a key needs the authenticator; the secret is answered once and kept sealed, the id hashed', async () => {
    const plain = await registerAndLogin(t.app);
    const noTotp = await t.app.inject({
      method: 'POST',
      url: '/api/user/apiKeys',
      headers: { ...plain.headers, 'user-lang': 'zh-HK' },
      payload: { label: 'bot', scopes: ['read'], emailCaptcha: await sensitiveCode(t.app, plain, 'API_KEY_CREATE') },
    });
    expect(noTotp.json()).toMatchObject({
      statusCode: 120,
      content: { fields: [{ field: 'mfaCode', message: '請先綁定 Google 驗證器' }] },
    });

    owner = await userWithAuthenticator();
    const missingCode = await t.app.inject({
      method: 'POST',
      url: '/api/user/apiKeys',
      headers: owner.headers,
      payload: { label: 'bot', scopes: ['read'], emailCaptcha: await sensitiveCode(t.app, owner, 'API_KEY_CREATE') },
    });
    expect(missingCode.json()).toMatchObject({ statusCode: 120, content: { fields: [{ field: 'mfaCode' }] } });

    const created = await createKey(owner, { label: 'reader', scopes: ['read'] });
    expect(created.json().statusCode).toBe(200);
    readKey = created.json().content;
    expect(readKey.apiKey).toMatch(/^mk_[\w-]{24}$/);
    expect(readKey.secret).toMatch(/^[\w-]{43}$/);
    const listed = (
      await t.app.inject({ method: 'GET', url: '/api/user/apiKeys', headers: { cookie: owner.cookie } })
    ).json().content;
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ label: 'reader', scopes: ['read'], keyPrefix: readKey.apiKey.slice(0, 8) });
    expect(JSON.stringify(listed)).not.toContain(readKey.secret);
    const stored = (
      (await t.database.db.execute(
        sql`SELECT key_id_hash, secret_sealed FROM api_keys WHERE id = ${readKey.id}`,
      )) as unknown as {
        rows: { key_id_hash: string; secret_sealed: string }[];
      }
    ).rows[0]!;
    expect(stored.key_id_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored.secret_sealed).toMatch(/^v1:/);
    expect(stored.secret_sealed).not.toContain(readKey.secret);
    // A security event: the user is told, and the mail carries a freeze link.
    let mail: { subject: string; body: string } | undefined;
    for (let i = 0; i < 50 && !mail; i += 1) {
      const box = (
        await t.app.inject({ method: 'GET', url: `/api/dev/mailbox?to=${encodeURIComponent(owner.email)}` })
      ).json().content as { subject: string; body: string }[];
      mail = box.find((item) => item.subject.includes('New API key created'));
      if (!mail) await new Promise((done) => setTimeout(done, 50));
    }
    expect(mail?.body).toMatch(/\/freeze\/[\w-]{43}/);
  });

  it('bad input names the field in both languages and creates nothing', async () => {
    const cases = [
      [{ label: '', scopes: ['read'] }, 'label', 'The name must be 1 to 40 characters', '名稱須為 1 至 40 個字元'],
      [{ label: 'x', scopes: [] }, 'scopes', 'Choose at least one permission', '請選擇最少一項權限'],
      [{ label: 'x', scopes: ['read', 'read'] }, 'scopes', 'Choose at least one permission', '請選擇最少一項權限'],
      [
        { label: 'x', scopes: ['read'], ipAllowlist: ['10.0.0.300'] },
        'ipAllowlist.0',
        'Enter IPv4 or IPv6',
        '請輸入 IPv4 或 IPv6',
      ],
    ] as const;
    for (const [body, field, en, zh] of cases) {
      for (const [lang, text] of [
        ['en-US', en],
        ['zh-HK', zh],
      ] as const) {
        const response = await t.app.inject({
          method: 'POST',
          url: '/api/user/apiKeys',
          headers: { ...owner.headers, 'user-lang': lang },
          payload: { ...body, emailCaptcha: '000000', mfaCode: '000000' },
        });
        expect(response.json().statusCode, `${field} ${lang}`).toBe(120);
        const named = response.json().content.fields.find((item: { field: string }) => item.field === field);
        expect(named?.message, `${field} ${lang}`).toContain(text);
      }
    }
    expect(await t.app.apiKeys.list(owner.userId)).toHaveLength(1);
  });

  it('a signed request reads; a bad signature, a stale timestamp and a replay are refused naming the header', async () => {
    const url = '/api/wallet/record?pageID=1&pageSize=10&action=withdraw';
    const ok = await signed(readKey, 'GET', url);
    expect(ok.json().statusCode).toBe(200);

    const timestamp = t.app.clock.now().getTime();
    const signature = signApiRequest(readKey.secret, {
      timestamp: String(timestamp),
      method: 'GET',
      requestTarget: url,
      body: '',
    });
    expect((await signed(readKey, 'GET', url, undefined, { timestamp, signature })).json().statusCode).toBe(200);
    const replay = await signed(readKey, 'GET', url, undefined, { timestamp, signature });
    expect(replay.json()).toMatchObject({ statusCode: 273, content: { fields: [{ field: 'X-MERIDIAN-SIGNATURE' }] } });

    const tampered = await signed(readKey, 'GET', url, undefined, {
      signature: signature.replace(/^./, (c) => (c === 'a' ? 'b' : 'a')),
      lang: 'zh-HK',
    });
    expect(tampered.statusCode).toBe(401);
    expect(tampered.json()).toMatchObject({
      statusCode: 271,
      message: '請求簽名不符',
      content: { fields: [{ field: 'X-MERIDIAN-SIGNATURE', message: '請求簽名不符' }] },
    });
    // Signed over another query: the query is covered.
    const otherQuery = signApiRequest(readKey.secret, {
      timestamp: String(t.app.clock.now().getTime()),
      method: 'GET',
      requestTarget: '/api/wallet/record?pageID=2&pageSize=10&action=withdraw',
      body: '',
    });
    expect((await signed(readKey, 'GET', url, undefined, { signature: otherQuery })).json().statusCode).toBe(271);

    const stale = await signed(readKey, 'GET', url, undefined, { timestamp: t.app.clock.now().getTime() - 6_000 });
    expect(stale.json()).toMatchObject({
      statusCode: 272,
      content: { fields: [{ field: 'X-MERIDIAN-TIMESTAMP' }] },
    });
    expect(stale.json().message).toContain('5000');
    const unknown = await signed({ ...readKey, apiKey: `mk_${'A'.repeat(24)}` }, 'GET', url);
    expect(unknown.json()).toMatchObject({ statusCode: 270, content: { fields: [{ field: 'X-MERIDIAN-APIKEY' }] } });
    // Routes without a scope refuse keys (a key cannot manage keys).
    expect((await signed(readKey, 'GET', '/api/user/apiKeys')).json().statusCode).toBe(276);
    expect((await t.app.apiKeys.list(owner.userId))[0]?.lastUsedAt).not.toBeNull();
  });

  it('scopes bound what a key may call', async () => {
    const swap = await signed(readKey, 'POST', '/api/exchange/swap', { quoteId: randomUUID() }, { lang: 'zh-HK' });
    expect(swap.json()).toMatchObject({ statusCode: 275, message: '此 API 金鑰沒有此操作所需的權限：trade' });
    const withdraw = await signed(readKey, 'POST', '/api/wallet/withdraw', {
      coin: 'USDT',
      network: 'TRC20',
      address: EXTERNAL_TRON,
      amount: '20',
    });
    expect(withdraw.json()).toMatchObject({ statusCode: 275, content: { fields: [{ field: 'X-MERIDIAN-APIKEY' }] } });
    const trader = await directKey(owner.userId, { label: 'trader', scopes: ['read', 'trade'] });
    // The trade scope reaches the swap (an unknown quote is the exchange's own answer).
    const traded = await signed(trader, 'POST', '/api/exchange/swap', { quoteId: randomUUID() });
    expect([104, 132, 133, 120]).toContain(traded.json().statusCode);
    expect(traded.json().statusCode).not.toBe(275);
  });

  it('the IP allowlist admits listed addresses and ranges only', async () => {
    const pinned = await directKey(owner.userId, {
      label: 'pinned',
      scopes: ['read'],
      ipAllowlist: ['10.1.2.3', '192.168.7.0/24'],
    });
    const url = '/api/account/balance';
    expect((await signed(pinned, 'GET', url, undefined, { remoteAddress: '10.1.2.3' })).json().statusCode).toBe(200);
    expect((await signed(pinned, 'GET', url, undefined, { remoteAddress: '192.168.7.99' })).json().statusCode).toBe(
      200,
    );
    const refused = await signed(pinned, 'GET', url, undefined, { remoteAddress: '10.1.2.4', lang: 'zh-HK' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ statusCode: 274, message: '此 API 金鑰不可從 IP 10.1.2.4 使用' });
    expect(isIpAllowed('::ffff:10.1.2.3', ['10.1.2.3'])).toBe(true);
    expect(isIpAllowed('2001:db8::1', ['2001:db8::/32'])).toBe(true);
    expect(isIpAllowed('10.1.2.3', [])).toBe(true);
  });

  it('a withdraw key sends only to address-book entries, without the security-check factors', async () => {
    await deposit(owner.userId, '100');
    const withdrawer = await directKey(owner.userId, { label: 'payouts', scopes: ['withdraw'] });
    const body = { coin: 'USDT', network: 'TRC20', address: EXTERNAL_TRON, amount: '20' };
    for (const [lang, text] of [
      ['en-US', 'With an API key, withdrawals go only to addresses in your address book'],
      ['zh-HK', '使用 API 金鑰時，只可提幣到地址簿內的地址'],
    ] as const) {
      const refused = await signed(withdrawer, 'POST', '/api/wallet/withdraw', body, { lang });
      expect(refused.json()).toMatchObject({
        statusCode: 120,
        content: { fields: [{ field: 'address', message: text }] },
      });
    }
    await t.database.db.execute(sql`UPDATE users SET mfa_last_step = NULL WHERE id = ${owner.userId}`);
    const added = await t.app.inject({
      method: 'POST',
      url: '/api/wallet/addressbook',
      headers: owner.headers,
      payload: {
        label: 'exchange',
        network: 'TRC20',
        address: EXTERNAL_TRON,
        emailCaptcha: await sensitiveCode(t.app, owner, 'WITHDRAW_ADDRESS_ADD'),
        mfaCode: totpCode(owner.totpSecret, t.app.clock.now().getTime()),
      },
    });
    expect(added.json().statusCode).toBe(200);
    const sent = await signed(withdrawer, 'POST', '/api/wallet/withdraw', body);
    expect(sent.json()).toMatchObject({ statusCode: 200, content: { status: 0 } });
  });

  it('scripts/api-request.sh (the docs/api.md example) works against a listening server', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    // The script stamps requests with `date`; under a test clock (TEST_CLOCK_AT) a `date` first on the
    // PATH answers the app's time, as a client's clock in step with the server's would.
    const offsetSeconds = Math.round((t.app.clock.now().getTime() - systemClock.now().getTime()) / 1000);
    const shimDir = mkdtempSync(join(tmpdir(), 'meridian-date-'));
    writeFileSync(
      join(shimDir, 'date'),
      `#!/bin/sh\nexec /usr/bin/env -u PATH date -d "@$(( $(command -p date +%s) + ${offsetSeconds} ))" "$@"\n`,
      { mode: 0o755 },
    );
    const PATH = `${shimDir}:${process.env.PATH ?? ''}`;
    const { stdout } = await run(
      'bash',
      [resolve(import.meta.dirname, '../../../../../scripts/api-request.sh'), 'GET', '/api/account/balance'],
      {
        env: {
          ...process.env,
          PATH,
          MERIDIAN_URL: address,
          MERIDIAN_API_KEY: readKey.apiKey,
          MERIDIAN_API_SECRET: readKey.secret,
        },
      },
    );
    expect(JSON.parse(stdout)).toMatchObject({ statusCode: 200 });
    const swap = await run(
      'bash',
      [
        resolve(import.meta.dirname, '../../../../../scripts/api-request.sh'),
        'POST',
        '/api/exchange/swap',
        JSON.stringify({ quoteId: randomUUID() }),
      ],
      {
        env: {
          ...process.env,
          PATH,
          MERIDIAN_URL: address,
          MERIDIAN_API_KEY: readKey.apiKey,
          MERIDIAN_API_SECRET: readKey.secret,
        },
      },
    );
    // Signed correctly (a POST with a body, no CSRF header): refused only for its scope.
    expect(JSON.parse(swap.stdout)).toMatchObject({ statusCode: 275 });
  });

  it('limits each key’s signed requests per minute (108 with Retry-After); another key is not affected', async () => {
    const busy = await directKey(owner.userId, { label: 'busy', scopes: ['read'] });
    for (let i = 0; i < 5; i += 1)
      expect((await signed(busy, 'GET', `/api/account/balance?n=${i}`)).json().statusCode).toBe(200);
    const limited = await signed(busy, 'GET', '/api/account/balance?n=5');
    expect(limited.statusCode).toBe(429);
    expect(limited.json().statusCode).toBe(108);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await signed(readKey, 'GET', '/api/account/balance?other')).json().statusCode).toBe(200);
  });

  it('unbinding the authenticator switches every key off', async () => {
    // The authenticator's replay guard is reset so that the test need not wait for the next 30 s step.
    await t.database.db.execute(sql`UPDATE users SET mfa_last_step = NULL WHERE id = ${owner.userId}`);
    const unbound = await t.app.inject({
      method: 'DELETE',
      url: '/api/user/config/mfa/key',
      headers: owner.headers,
      payload: {
        mfaCode: totpCode(owner.totpSecret, t.app.clock.now().getTime()),
        emailCaptcha: await sensitiveCode(t.app, owner, 'MFA_REMOVE'),
      },
    });
    expect(unbound.json().statusCode).toBe(200);
    const refused = await signed(readKey, 'GET', '/api/account/balance');
    expect(refused.json()).toMatchObject({ statusCode: 270, content: { fields: [{ field: 'X-MERIDIAN-APIKEY' }] } });
    expect(await t.app.apiKeys.list(owner.userId)).toHaveLength(0);
  });

  it('the OpenAPI document marks the routes that accept keys and their scope', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ in: 'header', name: 'X-MERIDIAN-APIKEY' });
    const withdraw = doc.paths['/api/wallet/withdraw'].post;
    expect(withdraw['x-api-key-scope']).toBe('withdraw');
    expect(withdraw.description).toContain('accepts a signed API key with scope withdraw');
    expect(doc.paths['/api/exchange/swap'].post['x-api-key-scope']).toBe('trade');
    expect(doc.paths['/api/user/apiKeys'].get['x-api-key-scope']).toBeUndefined();
  });
});
