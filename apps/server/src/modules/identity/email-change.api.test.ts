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
  type TestSession,
} from '../../../test/helpers.ts';
import { totpCode } from '../../platform/security/totp.ts';

/**
 * Changing the email address: a code to the new address proves it, the user's current
 * factors (EMAIL_CHANGE code to the old address + trade factors) authorise it; then other sessions
 * are revoked, withdrawals held 72 hours, an `email.changed` audit row and a mail to the old address.
 */
describe('identity: change email', () => {
  let t: TestApp;
  let ip = randomTestIp();
  const post = (url: string, session: TestSession | null, payload: Record<string, unknown>) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: session ? session.headers : mutationHeaders(),
      payload,
      remoteAddress: ip,
    });
  const get = (url: string, session: TestSession) =>
    t.app.inject({ method: 'GET', url, headers: { cookie: session.cookie }, remoteAddress: ip });
  const login = async (email: string, password: string) =>
    (await post('/api/user/login', null, { email, password, token: await solveHumanCheck(t.app, ip) })).json();
  const newAddress = () => `new-${Math.random().toString(36).slice(2, 10)}@example.com`;

  /** Where nothing may have moved after a refusal. */
  async function snapshot(session: TestSession) {
    const result = (await t.database.db.execute(
      sql`SELECT email, withdrawal_hold_until FROM users WHERE id = ${session.userId}`,
    )) as unknown as { rows: { email: string; withdrawal_hold_until: Date | null }[] };
    const audit = (await t.database.db.execute(
      sql`SELECT count(*)::int AS n FROM audit_events WHERE user_id = ${session.userId} AND kind = 'email.changed'`,
    )) as unknown as {
      rows: { n: number }[];
    };
    const live = (await t.database.db.execute(
      sql`SELECT count(*)::int AS n FROM sessions WHERE user_id = ${session.userId} AND revoked_at IS NULL`,
    )) as unknown as {
      rows: { n: number }[];
    };
    return { ...result.rows[0]!, changedRows: audit.rows[0]!.n, liveSessions: live.rows[0]!.n };
  }

  async function sendNewCode(session: TestSession, email: string): Promise<string> {
    const sent = await post('/api/user/email/captcha', session, { email });
    expect(sent.json()).toMatchObject({ statusCode: 200, content: { resendAfterSeconds: 59 } });
    return readLatestCode(t.app, email.trim().toLowerCase(), 'EMAIL_CHANGE');
  }

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });
  beforeEach(() => {
    ip = randomTestIp();
  });

  it('changes the email: new address signs in, old one does not, 72 h hold, other sessions revoked, audit and old-address mail', async () => {
    const session = await registerAndLogin(t.app, { remoteAddress: ip });
    // A second session of the same user (another device), which the change must sign out.
    const other = await login(session.email, session.password);
    expect(other.content.accountId).toBe(session.userId);
    const secondCookie = (
      await post('/api/user/login', null, {
        email: session.email,
        password: session.password,
        token: await solveHumanCheck(t.app, ip),
      })
    ).cookies
      .map((item) => `${item.name}=${item.value}`)
      .join('; ');
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/user/self', headers: { cookie: secondCookie } })).json()
        .statusCode,
    ).toBe(200);

    const target = newAddress();
    // Typed with spaces and capitals: normalised to the trimmed, lower-cased address.
    const sent = await post('/api/user/email/captcha', session, { email: `  ${target.toUpperCase()} ` });
    expect(sent.json().content.maskedTo).toMatch(/^ne\*+\w{2}@example\.com$/);
    const newEmailCaptcha = await readLatestCode(t.app, target, 'EMAIL_CHANGE');
    const emailCaptcha = await sensitiveCode(t.app, session, 'EMAIL_CHANGE');
    expect(emailCaptcha).not.toBe('');
    const changed = await post('/api/user/email/change', session, {
      email: target.toUpperCase(),
      newEmailCaptcha,
      emailCaptcha,
    });
    expect(changed.json().statusCode).toBe(200);

    // This session stays; the other one is signed out.
    expect((await get('/api/user/self', session)).json().content.email).toBe(target);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/user/self', headers: { cookie: secondCookie } })).json()
        .statusCode,
    ).toBe(101);
    const hold = await t.app.identity.withdrawalHoldUntil(session.userId);
    expect(hold!.getTime() - t.app.clock.now().getTime()).toBeGreaterThan(71.9 * 3_600_000);
    expect(hold!.getTime() - t.app.clock.now().getTime()).toBeLessThanOrEqual(72 * 3_600_000);
    expect((await get('/api/user/config', session)).json().content.withdrawalHoldUntil).not.toBeNull();
    const after = await snapshot(session);
    expect(after).toMatchObject({ email: target, changedRows: 1, liveSessions: 1 });

    // The old address is told; the mail names the new one only masked.
    const mailbox = (
      await t.app.inject({ method: 'GET', url: `/api/dev/mailbox?to=${encodeURIComponent(session.email)}` })
    ).json().content as { tag: string; body: string }[];
    const notice = mailbox.find((message) => message.tag === 'emailChanged');
    expect(notice?.body).toContain('72 hours');
    expect(notice?.body).not.toContain(target);

    expect((await login(session.email, session.password)).statusCode).toBe(110);
    const signedIn = await login(target, session.password);
    expect(signedIn.content.accountId).toBe(session.userId);
    // The codes were used up: replaying the same request is refused.
    const replay = await post('/api/user/email/change', session, {
      email: newAddress(),
      newEmailCaptcha,
      emailCaptcha,
    });
    expect(replay.json().statusCode).toBe(119);
    // No account has the old address any more.
    expect(await t.app.identity.findUserIdByEmail(session.email)).toBeNull();
  });

  it('refuses a wrong, missing or other-address new-address code, with nothing changed and the old-address code kept', async () => {
    const session = await registerAndLogin(t.app, { remoteAddress: ip });
    const before = await snapshot(session);
    const target = newAddress();
    const newEmailCaptcha = await sendNewCode(session, target);
    const emailCaptcha = await sensitiveCode(t.app, session, 'EMAIL_CHANGE');

    const missing = await post('/api/user/email/change', session, { email: target, emailCaptcha });
    expect(missing.json()).toMatchObject({ statusCode: 120, content: { fields: [{ field: 'newEmailCaptcha' }] } });
    const wrong = await post('/api/user/email/change', session, {
      email: target,
      newEmailCaptcha: newEmailCaptcha === '000000' ? '111111' : '000000',
      emailCaptcha,
    });
    expect(wrong.json().statusCode).toBe(119);
    // A code sent to one new address does not change to another.
    const elsewhere = newAddress();
    const otherAddress = await post('/api/user/email/change', session, {
      email: elsewhere,
      newEmailCaptcha,
      emailCaptcha,
    });
    expect(otherAddress.json().statusCode).toBe(119);
    // The current address's code is not accepted as the new address's.
    const oldCodeAsNew = await post('/api/user/email/change', session, {
      email: target,
      newEmailCaptcha: emailCaptcha,
      emailCaptcha,
    });
    expect(oldCodeAsNew.json().statusCode).toBe(119);
    expect(await snapshot(session)).toEqual(before);
    expect((await login(target, session.password)).statusCode).toBe(110);

    // Neither code was used up by the refusals.
    const changed = await post('/api/user/email/change', session, { email: target, newEmailCaptcha, emailCaptcha });
    expect(changed.json().statusCode).toBe(200);
  });

  it('refuses an address already used (case-insensitively) or unchanged, when sending and when changing', async () => {
    const owner = await registerAndLogin(t.app, { remoteAddress: ip });
    const session = await registerAndLogin(t.app, { remoteAddress: ip });
    const before = await snapshot(session);

    const takenSend = await post('/api/user/email/captcha', session, { email: owner.email.toUpperCase() });
    expect(takenSend.json()).toMatchObject({
      statusCode: 120,
      content: { fields: [{ field: 'email', message: 'This email address is already in use' }] },
    });
    const sameSend = await post('/api/user/email/captcha', session, { email: ` ${session.email.toUpperCase()}` });
    expect(sameSend.json()).toMatchObject({ statusCode: 120, content: { fields: [{ field: 'email' }] } });
    const malformed = await post('/api/user/email/captcha', session, { email: 'not-an-email' });
    expect(malformed.json()).toMatchObject({
      statusCode: 120,
      content: { fields: [{ field: 'email', message: 'Please enter a valid email address' }] },
    });
    await expect(readLatestCode(t.app, owner.email, 'EMAIL_CHANGE')).rejects.toThrow();

    // The address is taken after the code went out: the change itself refuses it.
    const target = newAddress();
    const newEmailCaptcha = await sendNewCode(session, target);
    const emailCaptcha = await sensitiveCode(t.app, session, 'EMAIL_CHANGE');
    await registerAndLogin(t.app, { email: target });
    const taken = await post('/api/user/email/change', session, {
      email: target.toUpperCase(),
      newEmailCaptcha,
      emailCaptcha,
    });
    expect(taken.json()).toMatchObject({ statusCode: 120, content: { fields: [{ field: 'email' }] } });
    expect(await snapshot(session)).toEqual(before);
    expect((await login(session.email, session.password)).content.accountId).toBe(session.userId);
  });

  it('refuses without the user’s current factors, with nothing changed and no code used', async () => {
    const session = await registerAndLogin(t.app, { remoteAddress: ip });
    const target = newAddress();
    const newEmailCaptcha = await sendNewCode(session, target);
    const before = await snapshot(session);

    const noFactor = await post('/api/user/email/change', session, { email: target, newEmailCaptcha });
    expect(noFactor.json()).toMatchObject({ statusCode: 120, content: { fields: [{ field: 'emailCaptcha' }] } });
    // A current-address code of another event does not authorise the change.
    const otherEvent = await sensitiveCode(t.app, session, 'WITHDRAW');
    expect(
      (
        await post('/api/user/email/change', session, { email: target, newEmailCaptcha, emailCaptcha: otherEvent })
      ).json().statusCode,
    ).toBe(119);
    expect(await snapshot(session)).toEqual(before);

    // With the authenticator bound (trade factor), it is demanded too, and a wrong one is refused.
    const key = (await get('/api/user/config/mfa/key', session)).json().content;
    const addCode = await sensitiveCode(t.app, session, 'MFA_ADD');
    expect(
      (
        await post('/api/user/config/mfa/key', session, {
          mfaCode: totpCode(key.secret, t.app.clock.now().getTime()),
          emailCaptcha: addCode,
        })
      ).json().statusCode,
    ).toBe(200);
    const beforeMfa = await snapshot(session);
    const emailCaptcha = await sensitiveCode(t.app, session, 'EMAIL_CHANGE');
    const noMfa = await post('/api/user/email/change', session, { email: target, newEmailCaptcha, emailCaptcha });
    expect(noMfa.json()).toMatchObject({ statusCode: 120, content: { fields: [{ field: 'mfaCode' }] } });
    const wrongMfa = await post('/api/user/email/change', session, {
      email: target,
      newEmailCaptcha,
      emailCaptcha,
      mfaCode: totpCode(key.secret, t.app.clock.now().getTime() - 10 * 60_000),
    });
    expect(wrongMfa.json().statusCode).toBe(119);
    expect(await snapshot(session)).toEqual(beforeMfa);

    // Even with the email factor switched off for trades, the current address's code is still required.
    const switchCode = await sensitiveCode(t.app, session, 'CONFIG_SWITCH');
    const switched = await post('/api/user/config/switch', session, {
      scope: 'trade',
      factor: 'email',
      isEnabled: false,
      emailCaptcha: switchCode,
      mfaCode: totpCode(key.secret, t.app.clock.now().getTime() + 30_000),
    });
    expect(switched.json().content.trade).toMatchObject({ email: 0, mfa: 1 });
    const onlyMfa = await post('/api/user/email/change', session, {
      email: target,
      newEmailCaptcha,
      mfaCode: totpCode(key.secret, t.app.clock.now().getTime() + 60_000),
    });
    expect(onlyMfa.json()).toMatchObject({ statusCode: 120, content: { fields: [{ field: 'emailCaptcha' }] } });

    // The test has spent the time steps within reach; let the current one count again.
    await t.database.db.execute(sql`UPDATE users SET mfa_last_step = NULL WHERE id = ${session.userId}`);
    const changed = await post('/api/user/email/change', session, {
      email: target,
      newEmailCaptcha,
      emailCaptcha,
      mfaCode: totpCode(key.secret, t.app.clock.now().getTime()),
    });
    expect(changed.json().statusCode).toBe(200);
    expect((await get('/api/user/self', session)).json().content.email).toBe(target);
  });

  it('answers 101 without a session', async () => {
    expect((await post('/api/user/email/captcha', null, { email: newAddress() })).json().statusCode).toBe(101);
    expect(
      (
        await post('/api/user/email/change', null, {
          email: newAddress(),
          newEmailCaptcha: '123456',
          emailCaptcha: '123456',
        })
      ).json().statusCode,
    ).toBe(101);
  });
});
