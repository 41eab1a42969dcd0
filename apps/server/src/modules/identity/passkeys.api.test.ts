import { sql } from 'drizzle-orm';
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
import { SoftAuthenticator } from '../../../test/soft-authenticator.ts';

/**
 * Passkeys, with a software authenticator (ES256 key from node:crypto, authenticator
 * data and `none` attestation built by hand): register under a name through the security check,
 * single-use challenges, rename, sign in (counter, user verification, origin, account lock), the
 * passkey as the `mfa` factor of the login Verify step and of the security check, and removal.
 */
describe('identity: passkeys', () => {
  let t: TestApp;
  const ip = randomTestIp();
  const post = (url: string, payload: unknown, headers: Record<string, string> = mutationHeaders()) =>
    t.app.inject({ method: 'POST', url, headers, payload: payload as Record<string, unknown>, remoteAddress: ip });
  const rows = async (query: ReturnType<typeof sql>) =>
    ((await t.database.db.execute(query)) as unknown as { rows: Record<string, unknown>[] }).rows;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  /** Let `session` ask for another code at once (the 59 s resend wait is not what is tested here). */
  const releaseCooldown = (session: TestSession) =>
    t.database.db.execute(
      sql`UPDATE verification_codes SET created_at = created_at - interval '60 seconds' WHERE address = ${session.email}`,
    );

  /** Registration options, the authenticator's answer, and the `PASSKEY_ADD` security check. */
  async function registerPasskey(session: TestSession, device: SoftAuthenticator, name: string) {
    const options = (await post('/api/user/passkeys/registration/options', {}, session.headers)).json().content;
    const emailCaptcha = await sensitiveCode(t.app, session, 'PASSKEY_ADD');
    return post(
      '/api/user/passkeys',
      { name, challengeId: options.challengeId, response: device.register(options.options.challenge), emailCaptcha },
      session.headers,
    );
  }

  /** A `verify` challenge (signed in, or of a login flow) answered by `device`. */
  async function passkeyFactor(device: SoftAuthenticator, headers: Record<string, string>, extra = {}) {
    const options = (
      await post('/api/user/passkeys/assertion/options', { purpose: 'verify', ...extra }, headers)
    ).json();
    expect(options.statusCode).toBe(200);
    return { challengeId: options.content.challengeId, response: device.assert(options.content.options.challenge) };
  }

  async function loginChallenge() {
    const options = (await post('/api/user/passkeys/assertion/options', { purpose: 'login' })).json().content;
    expect(options.options.userVerification).toBe('required');
    return options as { challengeId: string; options: { challenge: string } };
  }

  it('registers named passkeys through the security check, each challenge once', async () => {
    const session = await registerAndLogin(t.app, { remoteAddress: ip });
    const device = new SoftAuthenticator();
    const options = (await post('/api/user/passkeys/registration/options', {}, session.headers)).json().content;
    expect(options.options).toMatchObject({
      rp: { id: 'localhost', name: 'Meridian' },
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    });
    const response = device.register(options.options.challenge);

    // The security check (trade default: email code) is demanded; a bad name is refused in the user's language.
    const noCode = await post(
      '/api/user/passkeys',
      { name: 'Laptop', challengeId: options.challengeId, response },
      session.headers,
    );
    expect(noCode.json()).toMatchObject({ statusCode: 120, content: { fields: [{ field: 'emailCaptcha' }] } });
    const badName = await post(
      '/api/user/passkeys',
      { name: '   ', challengeId: options.challengeId, response },
      { ...session.headers, 'User-Lang': 'zh-HK' },
    );
    expect(badName.json()).toMatchObject({ statusCode: 120, content: { fields: [{ field: 'name' }] } });
    expect(badName.json().message).toContain('密碼匙');

    const emailCaptcha = await sensitiveCode(t.app, session, 'PASSKEY_ADD');
    const added = await post(
      '/api/user/passkeys',
      { name: ' Laptop ', challengeId: options.challengeId, response, emailCaptcha },
      session.headers,
    );
    expect(added.json()).toMatchObject({ statusCode: 200, content: { name: 'Laptop', transports: ['internal'] } });
    // Single use: the same answer again finds no challenge (the mfa factor is on now: the passkey gives it).
    await releaseCooldown(session);
    const again = await post(
      '/api/user/passkeys',
      {
        name: 'Again',
        challengeId: options.challengeId,
        response,
        emailCaptcha: await sensitiveCode(t.app, session, 'PASSKEY_ADD'),
        passkey: await passkeyFactor(device, session.headers),
      },
      session.headers,
    );
    expect(again.json().statusCode).toBe(260);

    // The first passkey turns the mfa factor on, as binding the authenticator does; the second is named apart.
    const config = (await t.app.inject({ url: '/api/user/config', headers: { cookie: session.cookie } })).json();
    expect(config.content).toMatchObject({ mfa: ['passkey'], login: { mfa: 1 }, trade: { mfa: 1 } });
    const phone = new SoftAuthenticator();
    await releaseCooldown(session);
    const second = await registerPasskeyWithFactor(session, phone, 'Phone', device);
    expect(second.json().statusCode).toBe(200);
    const list = (await t.app.inject({ url: '/api/user/passkeys', headers: { cookie: session.cookie } })).json();
    expect(list.content.map((item: { name: string }) => item.name)).toEqual(['Phone', 'Laptop']);

    const renamed = await t.app.inject({
      method: 'PATCH',
      url: `/api/user/passkeys/${list.content[1].id}`,
      headers: session.headers,
      payload: { name: 'Work laptop' },
      remoteAddress: ip,
    });
    expect(renamed.json()).toMatchObject({ statusCode: 200, content: { name: 'Work laptop' } });
    const messages = await rows(
      sql`SELECT kind FROM audit_events WHERE user_id = ${session.userId} AND kind LIKE 'passkey.%' ORDER BY id`,
    );
    expect(messages.map((row) => row.kind)).toEqual([
      'passkey.added',
      'passkey.used',
      'passkey.used',
      'passkey.added',
      'passkey.renamed',
    ]);
  });

  /** Register `device` when the trade mfa factor is on: the security check with `factor`'s passkey. */
  async function registerPasskeyWithFactor(
    session: TestSession,
    device: SoftAuthenticator,
    name: string,
    factor: SoftAuthenticator,
  ) {
    const options = (await post('/api/user/passkeys/registration/options', {}, session.headers)).json().content;
    const emailCaptcha = await sensitiveCode(t.app, session, 'PASSKEY_ADD');
    const passkey = await passkeyFactor(factor, session.headers);
    return post(
      '/api/user/passkeys',
      {
        name,
        challengeId: options.challengeId,
        response: device.register(options.options.challenge),
        emailCaptcha,
        passkey,
      },
      session.headers,
    );
  }

  it('signs in with a passkey under the password sign-in rules, refusing a counter that goes back', async () => {
    const session = await registerAndLogin(t.app, { remoteAddress: ip });
    const device = new SoftAuthenticator();
    expect((await registerPasskey(session, device, 'Laptop')).json().statusCode).toBe(200);

    const challenge = await loginChallenge();
    const signedIn = await post('/api/user/passkeys/login', {
      challengeId: challenge.challengeId,
      response: device.assert(challenge.options.challenge),
    });
    expect(signedIn.json()).toMatchObject({ statusCode: 200, content: { accountId: session.userId } });
    const cookie = signedIn.cookies.find((item) => item.name === 'meridian_sid');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    const self = await t.app.inject({ url: '/api/user/self', headers: { cookie: `meridian_sid=${cookie?.value}` } });
    expect(self.json().content.email).toBe(session.email);
    const [success] = await rows(
      sql`SELECT detail FROM audit_events WHERE user_id = ${session.userId} AND kind = 'login.success' ORDER BY id DESC LIMIT 1`,
    );
    expect(success?.detail).toMatchObject({ method: 'passkey' });
    const [used] = await rows(
      sql`SELECT counter, last_used_at FROM passkey_credentials WHERE user_id = ${session.userId}`,
    );
    expect(Number(used?.counter)).toBe(1);
    expect(used?.last_used_at).not.toBeNull();

    // A counter at or below the stored one (a cloned key) is refused and logged.
    const cloned = await loginChallenge();
    const regressed = await post('/api/user/passkeys/login', {
      challengeId: cloned.challengeId,
      response: device.assert(cloned.options.challenge, { counter: 1 }),
    });
    expect(regressed.json().statusCode).toBe(263);
    expect(
      await rows(
        sql`SELECT 1 FROM audit_events WHERE user_id = ${session.userId} AND kind = 'passkey.counter_regressed'`,
      ),
    ).toHaveLength(1);

    // User verification is required; the origin must be the site's; the challenge expires.
    device.counter = 10;
    const noUv = await loginChallenge();
    const unverified = await post('/api/user/passkeys/login', {
      challengeId: noUv.challengeId,
      response: device.assert(noUv.options.challenge, { isUserVerified: false }),
    });
    expect(unverified.json().statusCode).toBe(261);
    const phishing = await loginChallenge();
    const foreign = await post('/api/user/passkeys/login', {
      challengeId: phishing.challengeId,
      response: device.assert(phishing.options.challenge, { origin: 'https://meridian.example.net' }),
    });
    expect(foreign.json().statusCode).toBe(261);
    const late = await loginChallenge();
    await t.database.db.execute(
      sql`UPDATE passkey_challenges SET expires_at = ${t.app.clock.now().toISOString()}::timestamptz - interval '1 second' WHERE id = ${late.challengeId}`,
    );
    const expired = await post('/api/user/passkeys/login', {
      challengeId: late.challengeId,
      response: device.assert(late.options.challenge),
    });
    expect(expired.json().statusCode).toBe(260);
    // An unknown passkey.
    const stranger = await loginChallenge();
    const unknown = await post('/api/user/passkeys/login', {
      challengeId: stranger.challengeId,
      response: new SoftAuthenticator().assert(stranger.options.challenge),
    });
    expect(unknown.json().statusCode).toBe(262);

    // The failures above counted toward the address lock (3 so far); a locked address cannot sign in.
    await t.database.db.execute(
      sql`UPDATE login_throttles SET locked_until = ${t.app.clock.now().toISOString()}::timestamptz + interval '15 minutes' WHERE email = ${session.email}`,
    );
    const whileLocked = await loginChallenge();
    const locked = await post('/api/user/passkeys/login', {
      challengeId: whileLocked.challengeId,
      response: device.assert(whileLocked.options.challenge),
    });
    expect(locked.json().statusCode).toBe(103);
  });

  it('stands for the mfa factor at the login Verify step and in the security check, and is removed', async () => {
    const session = await registerAndLogin(t.app, { remoteAddress: ip });
    const device = new SoftAuthenticator();
    expect((await registerPasskey(session, device, 'Laptop')).json().statusCode).toBe(200);

    // Password sign-in now asks for the mfa factor and says a passkey can give it.
    const first = (
      await post('/api/user/login', {
        email: session.email,
        password: session.password,
        token: await solveHumanCheck(t.app, ip),
      })
    ).json();
    expect(first.content).toMatchObject({ accountId: null, mfa: true, passkey: true, authenticator: false });
    // The browser may still hold a session: the flow's ticket names the user (and no session binds the challenge).
    const passkey = await passkeyFactor(device, session.headers, {
      email: session.email,
      ticket: first.content.ticket,
    });
    const verified = await post('/api/user/login', {
      email: session.email,
      password: session.password,
      ticket: first.content.ticket,
      passkey,
    });
    expect(verified.json()).toMatchObject({ statusCode: 200, content: { accountId: session.userId } });

    // Removing needs the security check with the mfa factor, which the passkey gives.
    const [item] = (await t.app.inject({ url: '/api/user/passkeys', headers: { cookie: session.cookie } })).json()
      .content as { id: string }[];
    const remove = (payload: Record<string, unknown>) =>
      t.app.inject({
        method: 'DELETE',
        url: `/api/user/passkeys/${item?.id}`,
        headers: session.headers,
        payload,
        remoteAddress: ip,
      });
    const emailCaptcha = await sensitiveCode(t.app, session, 'PASSKEY_REMOVE');
    expect((await remove({ emailCaptcha })).json()).toMatchObject({
      statusCode: 120,
      content: { fields: [{ field: 'mfaCode' }] },
    });
    // A passkey challenge of another session is refused.
    const other = await registerAndLogin(t.app, { remoteAddress: ip });
    const foreignChallenge = await post('/api/user/passkeys/assertion/options', { purpose: 'verify' }, other.headers);
    expect(foreignChallenge.json().statusCode).toBe(262);
    const removed = await remove({ emailCaptcha, passkey: await passkeyFactor(device, session.headers) });
    expect(removed.json()).toMatchObject({ statusCode: 200 });
    const config = (await t.app.inject({ url: '/api/user/config', headers: { cookie: session.cookie } })).json();
    expect(config.content).toMatchObject({ mfa: [], login: { mfa: 0 }, trade: { mfa: 0, email: 1 } });
    expect(config.content.withdrawalHoldUntil).not.toBeNull();
    const [user] = await rows(sql`SELECT passkey_count FROM users WHERE id = ${session.userId}`);
    expect(user?.passkey_count).toBe(0);
  });
});
