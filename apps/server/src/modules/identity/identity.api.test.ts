import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createTestApp,
  mutationHeaders,
  randomTestIp,
  readLatestCode,
  registerAndLogin,
  sensitiveCode,
  solveHumanCheck,
  type TestApp,
} from '../../../test/helpers.ts';
import { totpCode } from '../../platform/security/totp.ts';

/**
 * Identity API through the real app: register, login, recover, codes, human check,
 * sessions, and every refusal the issue lists, each proving that nothing changed.
 */
describe('identity: register, login, recover', () => {
  let t: TestApp;
  // Each test calls from its own address, so the per-IP limits of one test do not spill into the next.
  let ip = randomTestIp();
  const post = (url: string, payload: unknown, headers: Record<string, string> = mutationHeaders()) =>
    t.app.inject({ method: 'POST', url, headers, payload: payload as Record<string, unknown>, remoteAddress: ip });
  const rows = async <T>(query: string): Promise<T[]> =>
    ((await t.database.db.execute(sql.raw(query))) as unknown as { rows: T[] }).rows;
  const count = async (table: string, where = 'true') =>
    Number((await rows<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE ${where}`))[0]?.n);

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });
  beforeEach(() => {
    ip = randomTestIp();
  });

  async function startRegister(email: string) {
    const response = await post('/api/user/register', { email, token: await solveHumanCheck(t.app) });
    expect(response.json().statusCode).toBe(200);
    const content = response.json().content;
    expect(content).toMatchObject({ email: true, mfa: false, security: false, accountId: null });
    return content.ticket as string;
  }

  it('registers through Mail → Verify → Password, and the account logs in', async () => {
    const email = 'Alice.Example@Example.COM ';
    const ticket = await startRegister(email);
    const send = await post('/api/user/captcha', { event: 'EMAIL_REGISTER', email, ticket });
    expect(send.json()).toMatchObject({
      statusCode: 200,
      content: { maskedTo: 'al*********le@example.com', resendAfterSeconds: 59 },
    });
    const code = await readLatestCode(t.app, 'alice.example@example.com', 'EMAIL_REGISTER');
    const check = await post('/api/user/register', { email, ticket, emailCaptcha: code });
    expect(check.json().statusCode).toBe(200);
    const created = await post('/api/user/register', {
      email,
      ticket,
      emailCaptcha: code,
      password: ' Tr0ub4dor&3-xyz ',
      confirm: 'Tr0ub4dor&3-xyz',
    });
    expect(created.json().statusCode).toBe(200);
    expect(created.json().content.accountId).toMatch(/^[0-9a-f-]{36}$/);

    const login = await post('/api/user/login', {
      email: 'ALICE.example@example.com',
      password: ' Tr0ub4dor&3-xyz ',
      token: await solveHumanCheck(t.app),
    });
    expect(login.json()).toMatchObject({
      statusCode: 200,
      content: { accountId: created.json().content.accountId, email: false, mfa: false },
    });
    const sid = login.cookies.find((cookie) => cookie.name === 'meridian_sid');
    expect(sid).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    const self = await t.app.inject({
      method: 'GET',
      url: '/api/user/self',
      headers: { cookie: `meridian_sid=${sid?.value}` },
    });
    expect(self.json().content).toMatchObject({
      email: 'alice.example@example.com',
      conf: { login: { email: 0, mfa: 0 }, trade: { email: 1, mfa: 0, security: 0 } },
    });
    expect(self.json().content.status.user.status).toBe(0);
  });

  it('refuses a malformed email, a short, mismatched or common password, naming the field, and creates nothing', async () => {
    const before = await count('users');
    const bad = await post('/api/user/register', { email: 'not-an-email', token: 'x' });
    expect(bad.json()).toMatchObject({
      statusCode: 120,
      content: { fields: [{ field: 'email', message: 'Please enter a valid email address' }] },
    });
    const zh = await post(
      '/api/user/register',
      { email: 'bad@', token: 'x' },
      mutationHeaders({ 'User-Lang': 'zh-HK' }),
    );
    expect(zh.json().content.fields[0]).toEqual({ field: 'email', message: '請輸入有效的電郵地址' });

    const email = 'bob@example.com';
    const ticket = await startRegister(email);
    await post('/api/user/captcha', { event: 'EMAIL_REGISTER', email, ticket });
    const code = await readLatestCode(t.app, email, 'EMAIL_REGISTER');
    const short = await post('/api/user/register', {
      email,
      ticket,
      emailCaptcha: code,
      password: 'short',
      confirm: 'short',
    });
    expect(short.json().content.fields[0]).toEqual({
      field: 'password',
      message: 'The password must be at least 8 characters',
    });
    const mismatch = await post('/api/user/register', {
      email,
      ticket,
      emailCaptcha: code,
      password: 'Long-enough-1',
      confirm: 'Long-enough-2',
    });
    expect(mismatch.json().content.fields[0]).toEqual({ field: 'confirm', message: 'The two passwords do not match' });
    const common = await post('/api/user/register', {
      email,
      ticket,
      emailCaptcha: code,
      password: 'password123',
      confirm: 'password123',
    });
    expect(common.json()).toMatchObject({
      statusCode: 120,
      content: { fields: [{ field: 'password', message: 'This password is too common, please choose another' }] },
    });
    expect(await count('users')).toBe(before);
    // The code survived the refusals: the right password still registers.
    const created = await post('/api/user/register', {
      email,
      ticket,
      emailCaptcha: code,
      password: 'Uncommon-Passphrase-7',
      confirm: 'Uncommon-Passphrase-7',
    });
    expect(created.json().statusCode).toBe(200);
  });

  it('refuses wrong, other-event, reused and expired codes, and voids a code on the fifth wrong try', async () => {
    const email = 'carol@example.com';
    const ticket = await startRegister(email);
    await post('/api/user/captcha', { event: 'EMAIL_REGISTER', email, ticket });
    const code = await readLatestCode(t.app, email, 'EMAIL_REGISTER');
    const wrong = code === '000000' ? '111111' : '000000';
    const answer = (emailCaptcha: string) =>
      post('/api/user/register', {
        email,
        ticket,
        emailCaptcha,
        password: 'Uncommon-Passphrase-7',
        confirm: 'Uncommon-Passphrase-7',
      });

    expect((await answer(wrong)).json().statusCode).toBe(119);
    // A code for another event does not open this one.
    const recoverTicket = (
      await post('/api/user/forgetPassword', { email, token: await solveHumanCheck(t.app) })
    ).json().content.ticket;
    expect(
      (await post('/api/user/forgetPassword', { email, ticket: recoverTicket, emailCaptcha: code })).json().statusCode,
    ).toBe(119);
    for (let i = 0; i < 3; i += 1) expect((await answer(wrong)).json().statusCode).toBe(119);
    // That was the fourth wrong try; the fifth voids the code, so even the right one now fails.
    expect((await answer(wrong)).json().statusCode).toBe(119);
    expect((await answer(code)).json().statusCode).toBe(119);
    expect(await count('users', `email = '${email}'`)).toBe(0);

    // A new code after the 59-second wait (moved back in time here) works once, not twice.
    await t.database.db.execute(
      sql.raw(
        `UPDATE verification_codes SET created_at = '${t.app.clock.now().toISOString()}'::timestamptz - interval '60 seconds' WHERE address = '${email}'`,
      ),
    );
    await post('/api/user/captcha', { event: 'EMAIL_REGISTER', email, ticket });
    const fresh = await readLatestCode(t.app, email, 'EMAIL_REGISTER');
    expect((await answer(fresh)).json().statusCode).toBe(200);
    expect((await answer(fresh)).json().statusCode).toBe(119);

    // An expired code is refused.
    const dave = 'dave@example.com';
    const daveTicket = await startRegister(dave);
    await post('/api/user/captcha', { event: 'EMAIL_REGISTER', email: dave, ticket: daveTicket });
    const daveCode = await readLatestCode(t.app, dave, 'EMAIL_REGISTER');
    await t.database.db.execute(
      sql.raw(
        `UPDATE verification_codes SET expires_at = '${t.app.clock.now().toISOString()}'::timestamptz - interval '1 second' WHERE address = '${dave}'`,
      ),
    );
    const expired = await post('/api/user/register', {
      email: dave,
      ticket: daveTicket,
      emailCaptcha: daveCode,
      password: 'Uncommon-Passphrase-7',
      confirm: 'Uncommon-Passphrase-7',
    });
    expect(expired.json().statusCode).toBe(119);
    expect(await count('users', `email = '${dave}'`)).toBe(0);
  });

  it('sends at most one code per 59 seconds per address and event, and asks for the flow ticket when signed out', async () => {
    const email = 'erin@example.com';
    const ticket = await startRegister(email);
    expect((await post('/api/user/captcha', { event: 'EMAIL_REGISTER', email, ticket })).json().statusCode).toBe(200);
    const again = await post('/api/user/captcha', { event: 'EMAIL_REGISTER', email, ticket });
    expect(again.statusCode).toBe(429);
    expect(again.json().statusCode).toBe(112);
    const noTicket = await post('/api/user/captcha', { event: 'EMAIL_REGISTER', email: 'x@example.com' });
    expect(noTicket.json().statusCode).toBe(120);
    const forged = await post('/api/user/captcha', { event: 'EMAIL_REGISTER', email: 'x@example.com', ticket });
    expect(forged.json().statusCode).toBe(119);
    const signedOutTrade = await post('/api/user/captcha', { event: 'WITHDRAW', email, ticket });
    expect(signedOutTrade.json().statusCode).toBe(101);
  });

  it('refuses a reused or forged human-check solution with 119', async () => {
    const token = await solveHumanCheck(t.app);
    expect((await post('/api/user/register', { email: 'frank@example.com', token })).json().statusCode).toBe(200);
    const reused = await post('/api/user/register', { email: 'frank@example.com', token });
    expect(reused.json().statusCode).toBe(119);
    const forged = await post('/api/user/register', {
      email: 'frank@example.com',
      token: Buffer.from('{"challenge":{},"solution":{}}').toString('base64'),
    });
    expect(forged.json().statusCode).toBe(119);
    const missing = await post('/api/user/login', { email: 'frank@example.com', password: 'whatever-1' });
    expect(missing.json()).toMatchObject({ statusCode: 120, content: { fields: [{ field: 'token' }] } });
  });

  it('answers an unknown email and a wrong password alike', async () => {
    const session = await registerAndLogin(t.app);
    const unknown = await post('/api/user/login', {
      email: 'nobody@example.com',
      password: 'Whatever-123',
      token: await solveHumanCheck(t.app),
    });
    const wrong = await post('/api/user/login', {
      email: session.email,
      password: 'Whatever-123',
      token: await solveHumanCheck(t.app),
    });
    expect(unknown.statusCode).toBe(wrong.statusCode);
    expect(unknown.json()).toEqual(wrong.json());
    expect(wrong.json()).toMatchObject({ statusCode: 110, message: 'Incorrect email or password', content: null });
  });

  it('locks an address for 15 minutes after 5 wrong passwords in 15 minutes', async () => {
    const session = await registerAndLogin(t.app);
    for (let i = 0; i < 5; i += 1) {
      const response = await post('/api/user/login', {
        email: session.email,
        password: `Wrong-pass-${i}`,
        token: await solveHumanCheck(t.app),
      });
      expect(response.json().statusCode).toBe(110);
    }
    const locked = await post('/api/user/login', {
      email: session.email,
      password: session.password,
      token: await solveHumanCheck(t.app),
    });
    expect(locked.json().statusCode).toBe(103);
    expect(locked.cookies.find((cookie) => cookie.name === 'meridian_sid')).toBeUndefined();
    // An unknown address locks the same way, so the lock tells nothing either.
    for (let i = 0; i < 5; i += 1)
      await post('/api/user/login', {
        email: 'ghost@example.com',
        password: `Wrong-pass-${i}`,
        token: await solveHumanCheck(t.app),
      });
    expect(
      (
        await post('/api/user/login', {
          email: 'ghost@example.com',
          password: 'x-any-pass',
          token: await solveHumanCheck(t.app),
        })
      ).json().statusCode,
    ).toBe(103);
    // After the lock expires the right password works again.
    await t.database.db.execute(
      sql.raw(
        `UPDATE login_throttles SET locked_until = '${t.app.clock.now().toISOString()}'::timestamptz - interval '1 second' WHERE email = '${session.email}'`,
      ),
    );
    expect(
      (
        await post('/api/user/login', {
          email: session.email,
          password: session.password,
          token: await solveHumanCheck(t.app),
        })
      ).json().statusCode,
    ).toBe(200);
  });

  it('asks for the email code at login when the login configuration requires it', async () => {
    const session = await registerAndLogin(t.app);
    const switchCode = await sensitiveCode(t.app, session, 'CONFIG_SWITCH');
    const switched = await post(
      '/api/user/config/switch',
      { scope: 'login', factor: 'email', isEnabled: true, emailCaptcha: switchCode },
      session.headers,
    );
    expect(switched.json()).toMatchObject({ statusCode: 200, content: { login: { email: 1 } } });

    const first = await post('/api/user/login', {
      email: session.email,
      password: session.password,
      token: await solveHumanCheck(t.app),
    });
    expect(first.json().content).toMatchObject({ accountId: null, email: true, mfa: false });
    expect(first.cookies.find((cookie) => cookie.name === 'meridian_sid')).toBeUndefined();
    const ticket = first.json().content.ticket;
    const missing = await post('/api/user/login', { email: session.email, password: session.password, ticket });
    expect(missing.json().content.fields[0].field).toBe('emailCaptcha');
    await post('/api/user/captcha', { event: 'LOGIN_CHECK', email: session.email, ticket });
    const code = await readLatestCode(t.app, session.email, 'LOGIN_CHECK');
    const second = await post('/api/user/login', {
      email: session.email,
      password: session.password,
      ticket,
      emailCaptcha: code,
    });
    expect(second.json().content.accountId).toBe(session.userId);
    const replay = await post('/api/user/login', {
      email: session.email,
      password: session.password,
      ticket,
      emailCaptcha: code,
    });
    expect(replay.json().statusCode).toBe(119);
  });

  it('recovers a password: every session revoked and withdrawals held 24 hours', async () => {
    const session = await registerAndLogin(t.app);
    const ticket = (
      await post('/api/user/forgetPassword', { email: session.email, token: await solveHumanCheck(t.app) })
    ).json().content.ticket;
    await post('/api/user/captcha', { event: 'FORGET_PASSWORD', email: session.email, ticket });
    const code = await readLatestCode(t.app, session.email, 'FORGET_PASSWORD');
    expect(
      (await post('/api/user/forgetPassword', { email: session.email, ticket, emailCaptcha: code })).json().statusCode,
    ).toBe(200);
    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/user/resetPassword',
      headers: mutationHeaders({ 'api-version': '2.0' }),
      payload: {
        email: session.email,
        ticket,
        emailCaptcha: code,
        password: 'Brand-new-Passphrase-1',
        confirm: 'Brand-new-Passphrase-1',
      },
    });
    expect(reset.json().statusCode).toBe(200);
    const old = await t.app.inject({ method: 'GET', url: '/api/user/self', headers: { cookie: session.cookie } });
    expect(old.json().statusCode).toBe(101);
    const hold = await t.app.identity.withdrawalHoldUntil(session.userId);
    expect(hold!.getTime() - t.app.clock.now().getTime()).toBeGreaterThan(23.9 * 3_600_000);
    await expect(t.app.identity.assertWithdrawalAllowed(session.userId)).rejects.toMatchObject({
      code: 'SECURITY_HOLD',
    });
    expect(
      (
        await post('/api/user/login', {
          email: session.email,
          password: 'Brand-new-Passphrase-1',
          token: await solveHumanCheck(t.app),
        })
      ).json().statusCode,
    ).toBe(200);
  });

  it('recovering an unknown address answers like a known one and delivers nothing', async () => {
    const email = 'unknown-recover@example.com';
    const first = await post('/api/user/forgetPassword', { email, token: await solveHumanCheck(t.app) });
    expect(first.json().statusCode).toBe(200);
    const send = await post('/api/user/captcha', {
      event: 'FORGET_PASSWORD',
      email,
      ticket: first.json().content.ticket,
    });
    expect(send.json().statusCode).toBe(200);
    await expect(readLatestCode(t.app, email)).rejects.toThrow();
  });

  it('logout revokes the session; forged and missing sessions answer 101 on protected routes', async () => {
    const session = await registerAndLogin(t.app);
    const protectedGets = [
      '/api/user/self',
      '/api/user/config',
      '/api/user/config/mfa/key',
      '/api/user/sessions',
      '/api/user/signins',
    ];
    for (const url of protectedGets) {
      expect((await t.app.inject({ method: 'GET', url })).json().statusCode, url).toBe(101);
      expect(
        (
          await t.app.inject({
            method: 'GET',
            url,
            headers: { cookie: 'meridian_sid=forged-token-forged-token-forged-token-1' },
          })
        ).json().statusCode,
        url,
      ).toBe(101);
    }
    const protectedPosts = [
      '/api/user/config/switch',
      '/api/user/config/mfa/key',
      '/api/user/security/password',
      '/api/user/mobile/captcha',
      '/api/user/web/mobile/bind',
      '/api/user/cancel',
      '/api/user/password',
    ];
    for (const url of protectedPosts) expect((await post(url, {})).json().statusCode, url).toBe(101);
    expect(
      (
        await t.app.inject({
          method: 'DELETE',
          url: '/api/user/config/mfa/key',
          headers: mutationHeaders(),
          payload: {},
        })
      ).json().statusCode,
    ).toBe(101);

    expect(
      (await t.app.inject({ method: 'POST', url: '/api/user/logout', headers: { cookie: session.cookie } })).statusCode,
    ).toBe(403);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/user/logout',
          headers: mutationHeaders({ cookie: session.cookie }),
        })
      ).json().statusCode,
    ).toBe(200);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/user/self', headers: { cookie: session.cookie } })).json()
        .statusCode,
    ).toBe(101);
  });

  it('refuses a state-changing call without the custom header (CSRF), changing nothing', async () => {
    const before = await count('human_check_uses');
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/user/register',
      headers: { 'content-type': 'application/json' },
      payload: { email: 'csrf@example.com', token: await solveHumanCheck(t.app) },
    });
    expect(response.statusCode).toBe(403);
    const form = await t.app.inject({
      method: 'POST',
      url: '/api/user/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-meridian-client': 'web' },
      payload: 'email=a@b.co&password=x',
    });
    expect(form.statusCode).toBe(403);
    expect(await count('human_check_uses')).toBe(before);
  });

  it('lists sessions, revokes one of them but never another user’s', async () => {
    const alice = await registerAndLogin(t.app);
    const bob = await registerAndLogin(t.app);
    const second = await post(
      '/api/user/login',
      { email: alice.email, password: alice.password, token: await solveHumanCheck(t.app) },
      mutationHeaders({ 'user-agent': 'Mozilla/5.0 (iPhone) Safari/604.1' }),
    );
    const secondCookie = `meridian_sid=${second.cookies.find((cookie) => cookie.name === 'meridian_sid')?.value}`;
    const list = (
      await t.app.inject({ method: 'GET', url: '/api/user/sessions', headers: { cookie: alice.cookie } })
    ).json().content;
    expect(list).toHaveLength(2);
    const other = list.find((item: { isCurrent: boolean }) => !item.isCurrent);
    expect(other.device).toBe('Safari · iOS');
    const bobsTry = await t.app.inject({
      method: 'DELETE',
      url: `/api/user/sessions/${other.id}`,
      headers: { ...bob.headers, 'content-type': 'application/json' },
      payload: {},
    });
    expect(bobsTry.json().statusCode).toBe(104);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/user/self', headers: { cookie: secondCookie } })).json()
        .statusCode,
    ).toBe(200);
    const revoke = await t.app.inject({
      method: 'DELETE',
      url: `/api/user/sessions/${other.id}`,
      headers: alice.headers,
      payload: {},
    });
    expect(revoke.json().statusCode).toBe(200);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/user/self', headers: { cookie: secondCookie } })).json()
        .statusCode,
    ).toBe(101);
    const signIns = (
      await t.app.inject({ method: 'GET', url: '/api/user/signins', headers: { cookie: alice.cookie } })
    ).json().content;
    expect(signIns.map((item: { kind: string }) => item.kind)).toEqual(
      expect.arrayContaining(['login.success', 'session.revoked']),
    );
    // A sign-in from a new device sent a notice mail.
    const mails = (await t.app.inject({ method: 'GET', url: `/api/dev/mailbox?to=${alice.email}` })).json().content;
    expect(mails.some((mail: { tag: string }) => mail.tag === 'newDevice')).toBe(true);
  });

  it('expires idle sessions', async () => {
    const session = await registerAndLogin(t.app);
    await t.database.db.execute(
      sql.raw(
        `UPDATE sessions SET last_seen_at = '${t.app.clock.now().toISOString()}'::timestamptz - interval '31 minutes' WHERE user_id = '${session.userId}'`,
      ),
    );
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/user/self', headers: { cookie: session.cookie } })).json()
        .statusCode,
    ).toBe(101);
  });

  it('lists countries with both names and calling codes, keeping Namibia', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/user/country/list', headers: { Silence: '1' } });
    const list = response.json().content as { code: string; nameEn: string; nameZh: string; dialCodes: string[] }[];
    expect(list).toHaveLength(249);
    expect(list.find((c) => c.code === 'NA')).toEqual({
      code: 'NA',
      nameEn: 'Namibia',
      nameZh: '納米比亞',
      dialCodes: ['264'],
    });
    expect(list.find((c) => c.code === 'HK')?.dialCodes).toEqual(['852']);
    expect(list.find((c) => c.code === 'AG')?.dialCodes).toEqual(['1268']);
    expect(list.find((c) => c.code === 'RS')?.dialCodes).toEqual(['381']);
    expect(list.find((c) => c.code === 'UM')?.dialCodes).toEqual([]);
  });

  it('writes an audit row for sign-ins and failures with IP and user agent', async () => {
    const session = await registerAndLogin(t.app);
    await post(
      '/api/user/login',
      { email: session.email, password: 'Wrong-pass-0', token: await solveHumanCheck(t.app) },
      mutationHeaders({ 'user-agent': 'audit-test' }),
    );
    const result = await rows<{ kind: string; ip: string; user_agent: string }>(
      `SELECT kind, ip, user_agent FROM audit_events WHERE user_id = '${session.userId}' ORDER BY id`,
    );
    const kinds = result.map((row) => row.kind);
    expect(kinds).toEqual(expect.arrayContaining(['account.registered', 'login.success', 'login.failure']));
    expect(result.find((row) => row.user_agent === 'audit-test')).toMatchObject({ ip });
  });

  it('purges expired nonces, tickets, codes and counters in the hourly job', async () => {
    expect(await count('human_check_uses')).toBeGreaterThan(0);
    expect(await count('verification_codes')).toBeGreaterThan(0);
    const [job] = t.app.identity.jobs();
    const now = new Date(t.app.clock.now().getTime() + 3 * 86_400_000);
    await t.database.db.transaction(async (tx) => job!.run({ tx, now, periodStartAt: now }, undefined));
    expect(await count('human_check_uses')).toBe(0);
    expect(await count('verification_codes')).toBe(0);
    expect(await count('flow_tickets')).toBe(0);
    expect(await count('users')).toBeGreaterThan(0);
  });

  it('gives a TOTP code computed the same way the e2e does', () => {
    expect(totpCode('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ', 59_000)).toBe('287082');
  });
});
