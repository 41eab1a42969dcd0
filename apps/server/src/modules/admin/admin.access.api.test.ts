import { BUSINESS_CODES } from '@meridian/contracts/codes';
import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, mutationHeaders, randomTestIp, type TestApp } from '../../../test/helpers.ts';
import { totpCode } from '../../platform/security/totp.ts';
import { auditRowCount, OPERATOR_COOKIE, OPERATOR_SESSION_RULES } from './admin.access.ts';

/**
 * Back-office access (docs/back-office.md "Access"), through the API on a fresh database: an operator signs in with a
 * password and must enrol an authenticator before anything else answers; the session cookie is `SameSite=Strict` on the
 * back-office paths; each route refuses roles it does not declare; an admin creates, changes and deactivates operators;
 * every action is in the append-only audit log, searchable and exportable as CSV.
 */
let t: TestApp;

/** The `meridian_admin` cookie value of a sign-in answer. */
function cookieOf(response: LightMyRequestResponse): string {
  const cookie = response.cookies.find((entry) => entry.name === OPERATOR_COOKIE);
  if (!cookie) throw new Error(`no operator cookie: ${response.body}`);
  return cookie.value;
}

/** Sign an operator in through the API, enrolling the authenticator on the way; returns the cookie and seed. */
async function signInWithTotp(email: string, password: string): Promise<{ cookie: string; seed: string }> {
  const first = await t.app.inject({
    method: 'POST',
    url: '/api/admin/session',
    remoteAddress: randomTestIp(),
    headers: mutationHeaders(),
    payload: { email, password },
  });
  expect(first.json().content.state).toBe('enrolTotp');
  const seed = first.json().content.totpEnrolment.secret as string;
  const cookie = cookieOf(first);
  const enrolled = await t.app.inject({
    method: 'POST',
    url: '/api/admin/session/totp',
    headers: mutationHeaders(),
    cookies: { [OPERATOR_COOKIE]: cookie },
    payload: { totpCode: totpCode(seed, t.app.clock.now().getTime()) },
  });
  expect(enrolled.json()).toMatchObject({ statusCode: 200, content: { state: 'signedIn' } });
  return { cookie, seed };
}

function asOperator(cookie: string, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) {
  return t.app.inject({
    method,
    url,
    headers: method === 'GET' ? {} : mutationHeaders(),
    cookies: { [OPERATOR_COOKIE]: cookie },
    ...(payload && { payload }),
  });
}

let adminCookie: string;

beforeAll(async () => {
  t = await createTestApp();
  const { temporaryPassword } = await t.app.admin.createOperator('root@meridian.test', 'admin');
  adminCookie = (await signInWithTotp('root@meridian.test', temporaryPassword)).cookie;
});
afterAll(async () => t?.close());

describe('back-office sign-in', () => {
  it('sets a SameSite=Strict, httpOnly cookie on the back-office paths only', async () => {
    const { temporaryPassword } = await t.app.admin.createOperator('cookie@meridian.test', 'support');
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/admin/session',
      remoteAddress: randomTestIp(),
      headers: mutationHeaders(),
      payload: { email: 'cookie@meridian.test', password: temporaryPassword },
    });
    const cookies = response.cookies.filter((entry) => entry.name === OPERATOR_COOKIE);
    expect(cookies.map((entry) => entry.path).sort()).toEqual(['/admin', '/api/admin']);
    for (const cookie of cookies) expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
  });

  it('lets an operator without an authenticator reach nothing but the enrolment', async () => {
    const { temporaryPassword } = await t.app.admin.createOperator('new@meridian.test', 'compliance');
    const first = await t.app.inject({
      method: 'POST',
      url: '/api/admin/session',
      remoteAddress: randomTestIp(),
      headers: mutationHeaders(),
      payload: { email: 'new@meridian.test', password: temporaryPassword },
    });
    expect(first.json().content).toMatchObject({ state: 'enrolTotp', operator: { hasTotp: false } });
    expect(first.json().content.totpEnrolment.otpauthUri).toMatch(/^otpauth:\/\/totp\//);
    const cookie = cookieOf(first);
    for (const url of ['/api/admin/session', '/api/admin/kyc', '/api/admin/audit', '/api/admin/withdrawals']) {
      const refused = await asOperator(cookie, 'GET', url);
      expect(refused.json().statusCode, url).toBe(101);
    }
    const wrong = await asOperator(cookie, 'POST', '/api/admin/session/totp', { totpCode: '000000' });
    expect(wrong.json()).toMatchObject({ statusCode: 120 });
    expect(JSON.stringify(wrong.json())).toContain('totpCode');
  });

  it('asks for the authenticator code once enrolled, and refuses a wrong or replayed one naming the field', async () => {
    const { temporaryPassword } = await t.app.admin.createOperator('totp@meridian.test', 'support');
    const { seed } = await signInWithTotp('totp@meridian.test', temporaryPassword);
    const signIn = (totpCode?: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/admin/session',
        remoteAddress: randomTestIp(),
        headers: { ...mutationHeaders(), 'user-lang': 'zh-HK' },
        payload: { email: 'totp@meridian.test', password: temporaryPassword, ...(totpCode && { totpCode }) },
      });
    const missing = await signIn();
    expect(missing.json().statusCode).toBe(120);
    expect(JSON.stringify(missing.json())).toContain('totpCode');
    // The code that enrolled it was used: the same step is refused (RFC 6238 §5.2).
    const replayed = await signIn(totpCode(seed, t.app.clock.now().getTime()));
    expect(replayed.json().statusCode).toBe(120);
    expect(replayed.json().message).toMatch(/驗證器代碼/);
    const next = await signIn(totpCode(seed, t.app.clock.now().getTime() + 30_000));
    expect(next.json()).toMatchObject({ statusCode: 200, content: { state: 'signedIn' } });
  });

  it('refuses a wrong password without saying which part was wrong, and locks after five', async () => {
    await t.app.admin.createOperator('lock@meridian.test', 'support');
    for (let attempt = 0; attempt < OPERATOR_SESSION_RULES.maxFailedSignIns; attempt += 1) {
      const wrong = await t.app.inject({
        method: 'POST',
        url: '/api/admin/session',
        remoteAddress: randomTestIp(),
        headers: mutationHeaders(),
        payload: { email: 'lock@meridian.test', password: 'not-the-password' },
      });
      expect(wrong.json().statusCode).toBe(110);
    }
    const locked = await t.app.inject({
      method: 'POST',
      url: '/api/admin/session',
      remoteAddress: randomTestIp(),
      headers: mutationHeaders(),
      payload: { email: 'lock@meridian.test', password: 'not-the-password' },
    });
    expect(locked.json().statusCode).toBe(103);
  });

  it('ends a session after 30 idle minutes and at sign-out', async () => {
    const { temporaryPassword } = await t.app.admin.createOperator('idle@meridian.test', 'support');
    const { cookie, seed } = await signInWithTotp('idle@meridian.test', temporaryPassword);
    expect((await asOperator(cookie, 'GET', '/api/admin/session')).json().statusCode).toBe(200);
    await t.database.db.execute(
      sql`UPDATE admin_sessions SET last_seen_at = ${t.app.clock.now().toISOString()}::timestamptz - interval '31 minutes' WHERE operator_id = (SELECT id FROM operators WHERE email = 'idle@meridian.test')`,
    );
    expect((await asOperator(cookie, 'GET', '/api/admin/session')).json().statusCode).toBe(101);

    const again = await signInWithTotpAgain('idle@meridian.test', temporaryPassword, seed);
    expect((await asOperator(again, 'GET', '/api/admin/session')).json().statusCode).toBe(200);
    await t.app.inject({
      method: 'DELETE',
      url: '/api/admin/session',
      remoteAddress: randomTestIp(),
      headers: mutationHeaders(),
      cookies: { [OPERATOR_COOKIE]: again },
    });
    expect((await asOperator(again, 'GET', '/api/admin/session')).json().statusCode).toBe(101);
  });

  it('needs the CSRF header for a cookie write, not for a script token', async () => {
    const noHeader = await t.app.inject({
      method: 'POST',
      url: '/api/admin/operators',
      cookies: { [OPERATOR_COOKIE]: adminCookie },
      payload: { email: 'csrf@meridian.test', role: 'support' },
    });
    expect(noHeader.json().statusCode).toBe(102);
    const { token } = await t.app.admin.createOperator('script@meridian.test', 'admin');
    const scripted = await t.app.inject({
      method: 'POST',
      url: '/api/admin/operators',
      headers: { authorization: `Bearer ${token}` },
      payload: { email: 'csrf@meridian.test', role: 'support' },
    });
    expect(scripted.json().statusCode).toBe(200);
  });
});

/** A later sign-in of an enrolled operator: the next TOTP step (the enrolment used the current one). */
async function signInWithTotpAgain(email: string, password: string, seed: string): Promise<string> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/admin/session',
    remoteAddress: randomTestIp(),
    headers: mutationHeaders(),
    payload: { email, password, totpCode: totpCode(seed, t.app.clock.now().getTime() + 30_000) },
  });
  expect(response.json().statusCode).toBe(200);
  return cookieOf(response);
}

describe('roles and operators', () => {
  it('refuses each route to a role it does not declare, and allows it to one it does', async () => {
    const { temporaryPassword } = await t.app.admin.createOperator('support@meridian.test', 'support');
    const { cookie } = await signInWithTotp('support@meridian.test', temporaryPassword);
    expect((await asOperator(cookie, 'GET', '/api/admin/kyc')).json().statusCode).toBe(200);
    expect((await asOperator(cookie, 'GET', '/api/admin/operators')).json().statusCode).toBe(102);
    expect((await asOperator(cookie, 'GET', '/api/admin/audit')).json().statusCode).toBe(102);
    const approve = await asOperator(cookie, 'POST', '/api/admin/kyc/00000000-0000-4000-8000-000000000000/approve');
    expect(approve.json().statusCode).toBe(102);
  });

  it('lets an admin create an operator (temporary password shown once) who then signs in with TOTP', async () => {
    const created = await asOperator(adminCookie, 'POST', '/api/admin/operators', {
      email: 'Compliance@Meridian.test',
      role: 'compliance',
    });
    expect(created.json().content.operator).toMatchObject({ email: 'compliance@meridian.test', role: 'compliance' });
    const duplicate = await asOperator(adminCookie, 'POST', '/api/admin/operators', {
      email: 'compliance@meridian.test',
      role: 'support',
    });
    expect(duplicate.json().statusCode).toBe(120);
    const { cookie } = await signInWithTotp('compliance@meridian.test', created.json().content.temporaryPassword);
    expect((await asOperator(cookie, 'GET', '/api/admin/audit')).json().statusCode).toBe(200);
  });

  it('ends every session of a deactivated operator, and an admin cannot deactivate themselves', async () => {
    const { temporaryPassword } = await t.app.admin.createOperator('leaver@meridian.test', 'finance');
    const { cookie } = await signInWithTotp('leaver@meridian.test', temporaryPassword);
    const list = (await asOperator(adminCookie, 'GET', '/api/admin/operators')).json().content as {
      id: number;
      email: string;
    }[];
    const leaver = list.find((row) => row.email === 'leaver@meridian.test')!;
    const root = list.find((row) => row.email === 'root@meridian.test')!;
    const off = await asOperator(adminCookie, 'PATCH', `/api/admin/operators/${leaver.id}`, { isActive: false });
    expect(off.json().content).toMatchObject({ isActive: false });
    expect((await asOperator(cookie, 'GET', '/api/admin/session')).json().statusCode).toBe(101);
    const self = await asOperator(adminCookie, 'PATCH', `/api/admin/operators/${root.id}`, { isActive: false });
    expect(self.json().statusCode).toBe(BUSINESS_CODES.CONFLICT.code);
  });
});

describe('audit log', () => {
  it('records each action with before/after and IP, searchable and exportable as CSV', async () => {
    const list = (await asOperator(adminCookie, 'GET', '/api/admin/operators')).json().content as {
      id: number;
      email: string;
      role: string;
    }[];
    const target = list.find((row) => row.email === 'support@meridian.test')!;
    await asOperator(adminCookie, 'PATCH', `/api/admin/operators/${target.id}`, { role: 'finance' });
    const page = await asOperator(adminCookie, 'GET', `/api/admin/audit?action=updateOperator&targetId=${target.id}`);
    const [entry] = page.json().content.list;
    expect(entry).toMatchObject({
      operatorEmail: 'root@meridian.test',
      action: 'updateOperator',
      targetType: 'operator',
      targetId: String(target.id),
      before: { role: 'support' },
      after: { role: 'finance' },
    });
    expect(entry.ip).toBeTruthy();
    const signIns = await asOperator(adminCookie, 'GET', '/api/admin/audit?action=operator.signInFailed');
    expect(signIns.json().content.totalCount).toBeGreaterThanOrEqual(5);

    const csv = await asOperator(adminCookie, 'GET', `/api/admin/audit.csv?targetId=${target.id}`);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.body).toContain('updateOperator');
    expect(csv.body.split('\n')[0]).toContain('operatorEmail');
  });

  it('is append-only: the database refuses to change or delete a row', async () => {
    const before = await auditRowCount(t.database.db);
    expect(before).toBeGreaterThan(0);
    await expect(t.database.db.execute(sql`UPDATE audit_log SET reason = 'x'`)).rejects.toThrow();
    await expect(t.database.db.execute(sql`DELETE FROM audit_log`)).rejects.toThrow();
    expect(await auditRowCount(t.database.db)).toBe(before);
  });
});
