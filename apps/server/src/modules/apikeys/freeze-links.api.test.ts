import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  depositThroughCustody,
  registerAndLogin,
  sensitiveCode,
  solveHumanCheck,
  type TestApp,
} from '../../../test/helpers.ts';
import { signApiRequest } from '../../platform/security/request-signing.ts';
import { accountBalance } from '../ledger/ledger.service.ts';
import { userAccount } from '../ledger/ledger.types.ts';
import { seedWallet } from '../wallet/wallet.seed.ts';

/**
 * Freeze links (docs/freeze-links.md): security mails carry a one-time link; using it (no sign-in) freezes the
 * account in the back office's frozen state, revokes sessions and API keys, cancels waiting
 * withdrawals back through the ledger, and refuses a second use. The ledger invariants are checked
 * when the file's app closes (test/ledger-invariants.ts).
 */
const CUSTODY_SECRET = 'custody-test-secret-'.padEnd(48, 'x');
const EXTERNAL_TRON = 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { CUSTODY_WEBHOOK_SECRET: CUSTODY_SECRET } });
  await seedWallet(t.database.db);
});
afterAll(async () => t.close());

type Mail = { subject: string; body: string };
async function mailbox(email: string): Promise<Mail[]> {
  return (await t.app.inject({ method: 'GET', url: `/api/dev/mailbox?to=${encodeURIComponent(email)}` })).json()
    .content;
}
const tokenOf = (mail: Mail | undefined) => /\/freeze\/([\w-]{43})/.exec(mail?.body ?? '')?.[1];

/** The first mail to `email` matching `test`, waiting for the notices' delivery (after commit). */
async function waitForMail(email: string, test: (mail: Mail) => boolean): Promise<Mail | undefined> {
  for (let i = 0; i < 60; i += 1) {
    const found = (await mailbox(email)).find(test);
    if (found) return found;
    await new Promise((done) => setTimeout(done, 50));
  }
  return undefined;
}

/** Sign in without a device cookie; @returns the cookie header. */
async function login(email: string, password: string): Promise<string> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/user/login',
    headers: { 'content-type': 'application/json', 'x-meridian-client': 'web' },
    payload: { email, password, token: await solveHumanCheck(t.app) },
  });
  expect(response.json().statusCode).toBe(200);
  return response.cookies.map((item) => `${item.name}=${item.value}`).join('; ');
}

function freeze(token: string, lang = 'en-US') {
  return t.app.inject({
    method: 'POST',
    url: '/api/user/freeze',
    headers: { 'content-type': 'application/json', 'x-meridian-client': 'web', 'user-lang': lang },
    payload: { token },
  });
}

describe('freeze link', () => {
  it('a sign-in mail and a withdrawal mail carry one-time links; one freezes everything at once, a second use is refused', async () => {
    const session = await registerAndLogin(t.app);
    await t.app.identity.setKycLevel(session.userId, 1);
    // A second sign-in from another device (no device cookie): the new-device mail.
    const secondCookie = await login(session.email, session.password);
    const newDevice = await waitForMail(session.email, (mail) => mail.subject.includes('New sign-in'));
    const signInToken = tokenOf(newDevice);
    expect(signInToken).toBeDefined();

    // Money in, then a withdrawal waiting for an operator (amount + fee frozen in the ledger).
    await depositThroughCustody(t.app, CUSTODY_SECRET, session.userId, '100');
    const available = () => accountBalance(t.database.db, userAccount(session.userId, 'USER_AVAILABLE', 'USDT'));
    const frozen = () => accountBalance(t.database.db, userAccount(session.userId, 'USER_FROZEN', 'USDT'));
    const withdrawal = await t.app.inject({
      method: 'POST',
      url: '/api/wallet/withdraw',
      headers: { ...session.headers, 'api-version': '2.0' },
      payload: {
        coin: 'USDT',
        network: 'TRC20',
        address: EXTERNAL_TRON,
        amount: '20',
        emailCaptcha: await sensitiveCode(t.app, session, 'WITHDRAW'),
      },
    });
    expect(withdrawal.json()).toMatchObject({ statusCode: 200, content: { status: 0 } });
    expect(await frozen()).toBeGreaterThan(0n);
    const withdrawMail = await waitForMail(session.email, (mail) => /withdrawal/i.test(mail.subject));
    const withdrawToken = tokenOf(withdrawMail);
    expect(withdrawToken).toBeDefined();
    expect(withdrawToken).not.toBe(signInToken);

    // A key, to see it revoked (made by the service: its security check is the API-key test's).
    const passed = {
      check: async () => {},
      consume: async () => {},
      verify: async () => {},
      answeredByReplay: () => {},
      isVerified: true,
    };
    const key = await t.app.apiKeys.create(
      session.userId,
      { label: 'bot', scopes: ['read'], ipAllowlist: [] },
      passed,
      {
        ip: null,
        userAgent: null,
        locale: 'en-US',
        deviceId: null,
      },
    );

    // Only its hash is stored; the link works without any session.
    const stored = (await t.database.db.execute(
      sql`SELECT token_hash FROM freeze_tokens WHERE user_id = ${session.userId}`,
    )) as unknown as {
      rows: { token_hash: string }[];
    };
    expect(stored.rows.map((row) => row.token_hash)).not.toContain(withdrawToken);

    const result = await freeze(withdrawToken!);
    expect(result.json()).toMatchObject({
      statusCode: 200,
      content: { apiKeysRevoked: 1, withdrawalsCancelled: 1 },
    });
    expect(result.json().content.sessionsRevoked).toBe(2);

    // Sessions revoked, the key off, the withdrawal cancelled back (nothing left frozen).
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/user/self', headers: { cookie: session.cookie } })).json()
        .statusCode,
    ).toBe(101);
    const timestamp = String(t.app.clock.now().getTime());
    const keyCall = await t.app.inject({
      method: 'GET',
      url: '/api/account/balance',
      headers: {
        'x-meridian-apikey': key.apiKey,
        'x-meridian-timestamp': timestamp,
        'x-meridian-signature': signApiRequest(key.secret, {
          timestamp,
          method: 'GET',
          requestTarget: '/api/account/balance',
          body: '',
        }),
      },
    });
    expect(keyCall.json().statusCode).toBe(270);
    expect(await frozen()).toBe(0n);
    expect(await available()).toBe(100_000_000n);
    const status = (await t.database.db.execute(
      sql`SELECT status FROM withdrawals WHERE user_id = ${session.userId}`,
    )) as unknown as {
      rows: { status: number }[];
    };
    expect(status.rows).toEqual([{ status: 4 }]);
    expect(await t.app.identity.isFrozen(session.userId)).toBe(true);

    expect(
      (await t.app.inject({ method: 'GET', url: '/api/user/self', headers: { cookie: secondCookie } })).json()
        .statusCode,
    ).toBe(101);
    // Signed in again: the account can be read but moves no money.
    const cookie = await login(session.email, session.password);
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/wallet/withdraw/check',
      headers: { cookie, 'content-type': 'application/json', 'x-meridian-client': 'web', 'api-version': '2.0' },
      payload: { coin: 'USDT', network: 'TRC20', address: EXTERNAL_TRON, amount: '20' },
    });
    expect(again.json().statusCode).toBe(152);

    // Single use, in both languages; the other link of the same account still answers (already frozen).
    expect((await freeze(withdrawToken!)).json()).toMatchObject({
      statusCode: 278,
      message: 'This freeze link is unknown, already used or expired',
    });
    expect((await freeze(withdrawToken!, 'zh-HK')).json()).toMatchObject({
      statusCode: 278,
      message: '此凍結連結無效、已使用或已過期',
    });
    expect((await freeze(signInToken!)).json()).toMatchObject({
      statusCode: 200,
      content: { withdrawalsCancelled: 0 },
    });

    // Audited; support unfreezes through the back office's path after identity checks.
    const audit = (await t.database.db.execute(
      sql`SELECT kind FROM audit_events WHERE user_id = ${session.userId} AND kind IN ('freeze_link.used', 'account.frozen')`,
    )) as unknown as { rows: { kind: string }[] };
    expect(audit.rows.map((row) => row.kind).sort()).toEqual([
      'account.frozen',
      'freeze_link.used',
      'freeze_link.used',
    ]);
    await t.app.identity.unfreezeAccount(session.userId, 'identity checked by phone', {
      email: 'support@meridian.test',
      ip: null,
    });
    expect(await t.app.identity.isFrozen(session.userId)).toBe(false);
  });

  it('refuses a malformed, unknown or expired token and names the field', async () => {
    for (const [lang, text] of [
      ['en-US', 'This link is not complete'],
      ['zh-HK', '此連結不完整'],
    ] as const) {
      expect((await freeze('short', lang)).json()).toMatchObject({
        statusCode: 120,
        content: { fields: [{ field: 'token', message: text }] },
      });
    }
    expect((await freeze('A'.repeat(43))).json().statusCode).toBe(278);
    const session = await registerAndLogin(t.app);
    const link = await t.app.identity.issueFreezeLink(session.userId);
    const token = link.split('/freeze/')[1]!;
    await t.database.db.execute(
      sql`UPDATE freeze_tokens SET expires_at = ${t.app.clock.now().toISOString()}::timestamptz - interval '1 second' WHERE user_id = ${session.userId}`,
    );
    expect((await freeze(token)).json().statusCode).toBe(278);
    expect(await t.app.identity.isFrozen(session.userId)).toBe(false);
  });
});
