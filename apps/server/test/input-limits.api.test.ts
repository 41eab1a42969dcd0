import { SHORT_TEXT_LENGTH_MAX, LIST_LENGTH_MAX } from '@meridian/contracts/limits';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, mutationHeaders, registerAndLogin, type TestApp, type TestSession } from './helpers.ts';

/**
 * Every string and list of a request has a maximum (`packages/contracts/src/limits.ts`, docs/api.md
 * "Limits and the linter"): an over-long string or list is refused before any handler runs with a
 * 422 field error (code 120) naming the field and its maximum, in the caller's language, and
 * changes nothing.
 */
let t: TestApp;
let session: TestSession;
beforeAll(async () => {
  t = await createTestApp();
  session = await registerAndLogin(t.app);
}, 120_000);
afterAll(async () => t?.close());

interface FieldErrorBody {
  statusCode: number;
  content: { fields: { field: string; message: string }[] };
}

function expectFieldError(response: { statusCode: number; json(): FieldErrorBody }, field: string, message: RegExp) {
  expect(response.statusCode).toBe(422);
  const body = response.json();
  expect(body.statusCode).toBe(120);
  expect(body.content.fields).toContainEqual({ field, message: expect.stringMatching(message) });
}

describe('request limits', () => {
  it('refuses an over-long string in a body, naming the field and its maximum (en-US, zh-HK), and opens no session', async () => {
    const recoveryCode = 'A'.repeat(SHORT_TEXT_LENGTH_MAX + 1);
    const login = (lang: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/user/login',
        headers: mutationHeaders({ 'user-lang': lang }),
        payload: { email: session.email, password: session.password, recoveryCode },
      });
    const refused = await login('en-US');
    expectFieldError(refused, 'recoveryCode', new RegExp(`at most ${SHORT_TEXT_LENGTH_MAX} characters`));
    // Nothing happened: no session was opened.
    expect(refused.cookies).toEqual([]);
    expectFieldError(await login('zh-HK'), 'recoveryCode', new RegExp(`最多 ${SHORT_TEXT_LENGTH_MAX} 個字元`));
  });

  it('refuses an over-long string in a query string and a path parameter', async () => {
    const query = await t.app.inject({
      method: 'GET',
      url: `/api/loan/order/list?orderId=${'1'.repeat(19)}`,
      headers: { cookie: session.cookie },
    });
    expectFieldError(query, 'orderId', /at most 18 characters/);
    const path = await t.app.inject({
      method: 'DELETE',
      url: `/api/user/apiKeys/${'a'.repeat(37)}`,
      headers: session.headers,
    });
    expect(path.statusCode).toBe(422);
    expect((path.json() as FieldErrorBody).content.fields.map((error) => error.field)).toContain('id');
  });

  it('refuses an over-long list (a repeated query parameter), naming the field and its maximum', async () => {
    const statuses = Array.from({ length: LIST_LENGTH_MAX + 1 }, () => 'status=1').join('&');
    const list = (lang: string) =>
      t.app.inject({
        method: 'GET',
        url: `/api/loan/order/list?${statuses}`,
        headers: { cookie: session.cookie, 'user-lang': lang },
      });
    expectFieldError(await list('en-US'), 'status', new RegExp(`at most ${LIST_LENGTH_MAX} items`));
    expectFieldError(await list('zh-HK'), 'status', new RegExp(`最多 ${LIST_LENGTH_MAX} 項`));
    const createTime = await t.app.inject({
      method: 'GET',
      url: `/api/wallet/record?${['2026-01-01T00:00:00Z', '2026-01-02T00:00:00Z', '2026-01-03T00:00:00Z'].map((time) => `createTime=${encodeURIComponent(time)}`).join('&')}`,
      headers: { cookie: session.cookie },
    });
    expect(createTime.statusCode).toBe(422);
    expect((createTime.json() as FieldErrorBody).content.fields.map((error) => error.field)).toContain('createTime');
    // The limit allows what it says: 100 statuses pass validation (the route then answers its own
    // business code: loans need verification).
    const atLimit = await t.app.inject({
      method: 'GET',
      url: `/api/loan/order/list?${Array.from({ length: LIST_LENGTH_MAX }, () => 'status=1').join('&')}`,
      headers: { cookie: session.cookie },
    });
    expect(atLimit.statusCode).not.toBe(422);
    expect((atLimit.json() as FieldErrorBody).statusCode).not.toBe(120);
  });

  it('answers a 1 MB string with the field error too, never a 5xx', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/user/login',
      headers: mutationHeaders(),
      payload: { email: session.email, password: session.password, recoveryCode: 'A'.repeat(1_000_000) },
    });
    expectFieldError(response, 'recoveryCode', /at most/);
  });
});
