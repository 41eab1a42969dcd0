import { sensitiveFactorsSchema } from '@meridian/contracts/security';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createTestApp,
  mutationHeaders,
  randomTestIp,
  readLatestCode,
  registerAndLogin,
  sensitiveCode,
  solveHumanCheck,
  type TestApp,
  type TestSession,
} from '../../../test/helpers.ts';
import { sensitiveActionOf } from '../../platform/http/auth.ts';
import { totpCode } from '../../platform/security/totp.ts';

/** A money-moving route stand-in that declares itself sensitive (WITHDRAW) and KYC-gated. */
function registerProbe(app: FastifyInstance, calls: unknown[]) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  routes.post(
    '/api/probe/withdraw',
    {
      config: { auth: 'user', sensitiveAction: 'WITHDRAW' },
      schema: { body: sensitiveFactorsSchema.extend({ amount: z.string() }) },
    },
    async (request) => {
      await sensitiveActionOf(request).verify(); // the handler checks the factors after its own validation
      calls.push(request.body);
      return { statusCode: 200, content: null, message: 'Success' };
    },
  );
  routes.get('/api/probe/investor', { config: { auth: 'user', kyc: 'investor' } }, async () => ({
    statusCode: 200,
    content: null,
    message: 'Success',
  }));
}

/**
 * Security settings: authenticator with RFC 6238 and replay refusal, recovery codes,
 * trading password and its lock, configuration switch, mobile binding, the sensitive-action guard,
 * withdrawal holds, KYC gate and account closure.
 */
describe('identity: security settings and sensitive actions', () => {
  let t: TestApp;
  const calls: unknown[] = [];
  let ip = randomTestIp();
  const send = (
    method: 'POST' | 'DELETE',
    url: string,
    session: TestSession | null,
    payload: Record<string, unknown>,
  ) =>
    t.app.inject({ method, url, headers: session ? session.headers : mutationHeaders(), payload, remoteAddress: ip });
  const get = (url: string, session: TestSession) =>
    t.app.inject({ method: 'GET', url, headers: { cookie: session.cookie }, remoteAddress: ip });

  beforeAll(async () => {
    t = await createTestApp({ configure: (app) => registerProbe(app, calls) });
  });
  afterAll(async () => {
    await t.close();
  });
  beforeEach(() => {
    ip = randomTestIp();
  });

  async function bindAuthenticator(session: TestSession): Promise<{ secret: string; recoveryCodes: string[] }> {
    const key = (await get('/api/user/config/mfa/key', session)).json().content;
    expect(key.otpauthUri).toMatch(/^otpauth:\/\/totp\/Meridian:.+\?.*secret=/);
    // The seed is stored sealed (AES-256-GCM), never as the plain base32 the user scans.
    const stored = await t.database.db.execute(sql`SELECT mfa_pending_secret FROM users WHERE id = ${session.userId}`);
    const sealed = (stored as unknown as { rows: { mfa_pending_secret: string }[] }).rows[0]!.mfa_pending_secret;
    expect(sealed).toMatch(/^v1:/);
    expect(sealed).not.toContain(key.secret);
    expect(key.qrDataUrl).toMatch(/^data:image\/png;base64,/);
    const emailCaptcha = await sensitiveCode(t.app, session, 'MFA_ADD');
    const bound = await send('POST', '/api/user/config/mfa/key', session, {
      mfaCode: totpCode(key.secret, t.app.clock.now().getTime()),
      emailCaptcha,
    });
    expect(bound.json().statusCode).toBe(200);
    return { secret: key.secret, recoveryCodes: bound.json().content.recoveryCodes };
  }

  it('the guard demands exactly the trade factors: email code by default', async () => {
    const session = await registerAndLogin(t.app);
    const before = calls.length;
    const missing = await send('POST', '/api/probe/withdraw', session, { amount: '1' });
    expect(missing.json()).toMatchObject({ statusCode: 120, content: { fields: [{ field: 'emailCaptcha' }] } });
    const wrongEvent = await sensitiveCode(t.app, session, 'PURCHASE');
    expect(
      (await send('POST', '/api/probe/withdraw', session, { amount: '1', emailCaptcha: wrongEvent })).json().statusCode,
    ).toBe(119);
    const code = await sensitiveCode(t.app, session, 'WITHDRAW');
    expect(
      (await send('POST', '/api/probe/withdraw', session, { amount: '1', emailCaptcha: code })).json().statusCode,
    ).toBe(200);
    expect(
      (await send('POST', '/api/probe/withdraw', session, { amount: '1', emailCaptcha: code })).json().statusCode,
    ).toBe(119);
    expect(calls.length).toBe(before + 1);
  });

  it('binds the authenticator, refuses a replayed time step, and signs in with it or a recovery code', async () => {
    const session = await registerAndLogin(t.app);
    const { secret, recoveryCodes } = await bindAuthenticator(session);
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    const config = (await get('/api/user/config', session)).json().content;
    expect(config).toMatchObject({ mfa: ['google'], login: { mfa: 1 }, trade: { email: 1, mfa: 1 } });
    expect(config.withdrawalHoldUntil).not.toBeNull();

    const first = await send('POST', '/api/user/login', null, {
      email: session.email,
      password: session.password,
      token: await solveHumanCheck(t.app, ip),
    });
    expect(first.json().content).toMatchObject({ mfa: true, email: false, accountId: null });
    const ticket = first.json().content.ticket;
    // The step used to bind is spent: its code is refused (RFC 6238 §5.2), and nothing is signed in.
    const replay = await send('POST', '/api/user/login', null, {
      email: session.email,
      password: session.password,
      ticket,
      mfaCode: totpCode(secret, t.app.clock.now().getTime()),
    });
    expect(replay.json().statusCode).toBe(119);
    const next = await send('POST', '/api/user/login', null, {
      email: session.email,
      password: session.password,
      ticket,
      mfaCode: totpCode(secret, t.app.clock.now().getTime() + 30_000),
    });
    expect(next.json().content.accountId).toBe(session.userId);

    const again = await send('POST', '/api/user/login', null, {
      email: session.email,
      password: session.password,
      token: await solveHumanCheck(t.app, ip),
    });
    const ticket2 = again.json().content.ticket;
    const byRecovery = await send('POST', '/api/user/login', null, {
      email: session.email,
      password: session.password,
      ticket: ticket2,
      recoveryCode: recoveryCodes[0]!.toLowerCase(),
    });
    expect(byRecovery.json().content.accountId).toBe(session.userId);
    const again3 = await send('POST', '/api/user/login', null, {
      email: session.email,
      password: session.password,
      token: await solveHumanCheck(t.app, ip),
    });
    const reusedRecovery = await send('POST', '/api/user/login', null, {
      email: session.email,
      password: session.password,
      ticket: again3.json().content.ticket,
      recoveryCode: recoveryCodes[0],
    });
    expect(reusedRecovery.json().statusCode).toBe(119);
  });

  it('the guard demands the authenticator once trade MFA is on, and unbinding needs it too', async () => {
    const session = await registerAndLogin(t.app);
    const { secret, recoveryCodes } = await bindAuthenticator(session);
    const emailCaptcha = await sensitiveCode(t.app, session, 'WITHDRAW');
    const noMfa = await send('POST', '/api/probe/withdraw', session, { amount: '1', emailCaptcha });
    expect(noMfa.json().content.fields[0].field).toBe('mfaCode');
    const wrong = await send('POST', '/api/probe/withdraw', session, {
      amount: '1',
      emailCaptcha,
      mfaCode: totpCode(secret, t.app.clock.now().getTime() - 10 * 60_000),
    });
    expect(wrong.json().statusCode).toBe(119);
    // The email code survives a wrong second factor.
    const right = await send('POST', '/api/probe/withdraw', session, {
      amount: '1',
      emailCaptcha,
      mfaCode: totpCode(secret, t.app.clock.now().getTime() + 30_000),
    });
    expect(right.json().statusCode).toBe(200);

    const removeCode = await sensitiveCode(t.app, session, 'MFA_REMOVE');
    const unbind = await t.app.inject({
      method: 'DELETE',
      url: '/api/user/config/mfa/key',
      headers: session.headers,
      payload: { emailCaptcha: removeCode, recoveryCode: recoveryCodes[3] },
      remoteAddress: ip,
    });
    expect(unbind.json().statusCode).toBe(200);
    expect((await get('/api/user/config', session)).json().content).toMatchObject({
      mfa: [],
      login: { mfa: 0 },
      trade: { mfa: 0, email: 1 },
    });
  });

  it('sets the trading password; 5 wrong entries lock it for 30 minutes', async () => {
    const session = await registerAndLogin(t.app);
    const mismatch = await send('POST', '/api/user/security/password', session, {
      newSecurityPassword: '135790',
      confirm: '135791',
      emailCaptcha: '123456',
    });
    expect(mismatch.json().content.fields[0]).toMatchObject({ field: 'confirm' });
    const notDigits = await send('POST', '/api/user/security/password', session, {
      newSecurityPassword: 'abcdef',
      confirm: 'abcdef',
      emailCaptcha: '123456',
    });
    expect(notDigits.json().content.fields[0]).toMatchObject({
      field: 'newSecurityPassword',
      message: 'Enter the 6-digit code',
    });
    const code = await sensitiveCode(t.app, session, 'SECURITY_PASSWORD');
    const set = await send('POST', '/api/user/security/password', session, {
      newSecurityPassword: '135790',
      confirm: '135790',
      emailCaptcha: code,
    });
    expect(set.json().content).toMatchObject({ security: 1, trade: { security: 1 } });

    const withdrawCode = await sensitiveCode(t.app, session, 'WITHDRAW');
    for (let i = 0; i < 5; i += 1) {
      const wrong = await send('POST', '/api/probe/withdraw', session, {
        amount: '1',
        emailCaptcha: withdrawCode,
        securityPassword: '000000',
      });
      expect(wrong.json().statusCode).toBe(119);
    }
    const locked = await send('POST', '/api/probe/withdraw', session, {
      amount: '1',
      emailCaptcha: withdrawCode,
      securityPassword: '135790',
    });
    expect(locked.json().statusCode).toBe(103);
    await t.database.db.execute(
      sql.raw(
        `UPDATE users SET security_locked_until = '${t.app.clock.now().toISOString()}'::timestamptz - interval '1 second' WHERE id = '${session.userId}'`,
      ),
    );
    const unlocked = await send('POST', '/api/probe/withdraw', session, {
      amount: '1',
      emailCaptcha: withdrawCode,
      securityPassword: '135790',
    });
    expect(unlocked.json().statusCode).toBe(200);
  });

  it('switches configuration after verifying the factors, keeping at least one trade factor', async () => {
    const session = await registerAndLogin(t.app);
    const code = await sensitiveCode(t.app, session, 'CONFIG_SWITCH');
    const lastOne = await send('POST', '/api/user/config/switch', session, {
      scope: 'trade',
      factor: 'email',
      isEnabled: false,
      emailCaptcha: code,
    });
    expect(lastOne.json().content.fields[0]).toEqual({
      field: 'isEnabled',
      message: 'At least one binding must remain',
    });
    const mfaUnbound = await send('POST', '/api/user/config/switch', session, {
      scope: 'trade',
      factor: 'mfa',
      isEnabled: true,
      emailCaptcha: code,
    });
    expect(mfaUnbound.json().content.fields[0].field).toBe('factor');
    const noCode = await send('POST', '/api/user/config/switch', session, {
      scope: 'login',
      factor: 'email',
      isEnabled: true,
    });
    expect(noCode.json().content.fields[0].field).toBe('emailCaptcha');
    const invalid = await send('POST', '/api/user/config/switch', session, {
      scope: 'login',
      factor: 'security',
      isEnabled: true,
      emailCaptcha: code,
    });
    expect(invalid.json().statusCode).toBe(120);
    expect((await get('/api/user/config', session)).json().content).toMatchObject({
      login: { email: 0, mfa: 0 },
      trade: { email: 1, mfa: 0, security: 0 },
    });
  });

  it('binds a mobile number with SMS and email codes; changing it holds withdrawals 72 hours', async () => {
    const session = await registerAndLogin(t.app);
    const badCountry = await send('POST', '/api/user/mobile/captcha', session, {
      mobileCountry: 'hk',
      mobile: '91234567',
    });
    expect(badCountry.json().content.fields[0].field).toBe('mobileCountry');
    const sent = await send('POST', '/api/user/mobile/captcha', session, { mobileCountry: 'HK', mobile: '9123 4567' });
    expect(sent.json().statusCode).toBe(200);
    const smsCaptcha = await readLatestCode(t.app, '+85291234567', 'MOBILE_BIND');
    const emailCaptcha = await sensitiveCode(t.app, session, 'MOBILE_BIND');
    const bound = await send('POST', '/api/user/web/mobile/bind', session, {
      mobileCountry: 'HK',
      mobile: '91234567',
      smsCaptcha,
      emailCaptcha,
    });
    expect(bound.json().content.mobile).toBe(1);
    expect((await get('/api/user/self', session)).json().content).toMatchObject({
      mobile: '+85291234567',
      mobileCountry: 'HK',
      mobileCode: '852',
    });
    expect(await t.app.identity.withdrawalHoldUntil(session.userId)).toBeNull();

    await send('POST', '/api/user/mobile/captcha', session, { mobileCountry: 'GB', mobile: '07700 900123' });
    const sms2 = await readLatestCode(t.app, '+447700900123', 'MOBILE_BIND');
    await t.database.db.execute(
      sql.raw(
        `UPDATE verification_codes SET created_at = '${t.app.clock.now().toISOString()}'::timestamptz - interval '60 seconds' WHERE user_id = '${session.userId}'`,
      ),
    );
    const email2 = await sensitiveCode(t.app, session, 'MOBILE_BIND');
    const changed = await send('POST', '/api/user/web/mobile/bind', session, {
      mobileCountry: 'GB',
      mobile: '07700900123',
      smsCaptcha: sms2,
      emailCaptcha: email2,
    });
    expect(changed.json().statusCode).toBe(200);
    const hold = await t.app.identity.withdrawalHoldUntil(session.userId);
    expect(hold!.getTime() - t.app.clock.now().getTime()).toBeGreaterThan(71.9 * 3_600_000);
  });

  it('gates a route on the KYC level, naming the missing step', async () => {
    const session = await registerAndLogin(t.app);
    const refused = (await get('/api/probe/investor', session)).json();
    expect(refused.statusCode).toBe(143);
    expect(refused.content).toEqual({ step: 'basic', route: '/identity/basic', requiredLevel: 2, level: 0 });
    expect(refused.message).toBe('Complete basic identity verification first to use this');
    await t.app.identity.setKycLevel(session.userId, 1);
    expect((await get('/api/probe/investor', session)).json().content).toMatchObject({
      step: 'investor',
      route: '/identity/investor',
      level: 1,
    });
    await t.app.identity.setKycLevel(session.userId, 2);
    expect((await get('/api/probe/investor', session)).json().statusCode).toBe(200);
  });

  it('refuses to delete an account that still holds something, then deletes it and removes personal data', async () => {
    const session = await registerAndLogin(t.app);
    let held = ['USDT balance'];
    t.app.identity.addHoldingsChecker({
      reasonsToRefuseClosure: async (userId) => (userId === session.userId ? held : []),
    });
    const code = await sensitiveCode(t.app, session, 'ACCOUNT_CANCEL');
    const refused = await send('POST', '/api/user/cancel', session, { emailCaptcha: code });
    expect(refused.json()).toMatchObject({ statusCode: 111, content: { reasons: ['USDT balance'] } });
    expect((await get('/api/user/self', session)).json().statusCode).toBe(200);

    held = [];
    const noCode = await send('POST', '/api/user/cancel', session, {});
    expect(noCode.json().statusCode).toBe(120);
    // The refusal came before the security check: the same code still closes the account.
    const closed = await send('POST', '/api/user/cancel', session, { emailCaptcha: code });
    expect(closed.json().statusCode).toBe(200);
    expect((await get('/api/user/self', session)).json().statusCode).toBe(101);
    const result = (await t.database.db.execute(
      sql.raw(`SELECT email, password_hash, status FROM users WHERE id = '${session.userId}'`),
    )) as unknown as { rows: unknown[] };
    const row = result.rows[0];
    expect(row).toEqual({ email: `closed+${session.userId}@deleted.invalid`, password_hash: null, status: 'closed' });
    const login = await send('POST', '/api/user/login', null, {
      email: session.email,
      password: session.password,
      token: await solveHumanCheck(t.app, ip),
    });
    expect(login.json().statusCode).toBe(110);
    // The address is free again.
    expect((await registerAndLogin(t.app, { email: session.email })).userId).not.toBe(session.userId);
  });

  it('limits requests per IP (memory store): the 31st login in a minute answers 108', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 31; i += 1) {
      const response = await send('POST', '/api/user/login', null, {
        email: `rate${i}@example.com`,
        password: 'Whatever-1',
        token: 'not-a-token',
      });
      statuses.push(response.statusCode);
    }
    expect(statuses.slice(0, 30).every((status) => status !== 429)).toBe(true);
    expect(statuses[30]).toBe(429);
  });
});

describe.runIf(process.env.REDIS_URL)('identity: rate limits on the Redis store', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { REDIS_URL: process.env.REDIS_URL } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('counts per IP in Redis: the 21st code request in a minute answers 108', async () => {
    const remoteAddress = randomTestIp();
    const statuses: number[] = [];
    for (let i = 0; i < 21; i += 1) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/user/captcha',
        headers: mutationHeaders(),
        payload: { event: 'WITHDRAW' },
        remoteAddress,
      });
      statuses.push(response.json().statusCode);
    }
    expect(statuses.slice(0, 20).every((code) => code === 101)).toBe(true);
    expect(statuses[20]).toBe(108);
  });
});
