import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerAndLogin, type TestApp } from '../../../test/helpers.ts';

/**
 * Sessions are cached per process for a few seconds (identity.session-cache.ts). A change made
 * anywhere — here straight in the database, as another server process would — must end the cached
 * session at once: migration 0010's triggers announce it and the app drops the user's entries.
 */
describe('session cache', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  const self = async (cookie: string) =>
    (await t.app.inject({ method: 'GET', url: '/api/user/self', headers: { cookie } })).json().statusCode as number;
  /** Notifications arrive after commit, on PostgreSQL through another connection: wait for the answer to change. */
  async function eventually(check: () => Promise<boolean>): Promise<boolean> {
    for (let attempt = 0; attempt < 50; attempt += 1) {
      if (await check()) return true;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return false;
  }

  it('ends a cached session as soon as another process revokes it', async () => {
    const session = await registerAndLogin(t.app);
    expect(await self(session.cookie)).toBe(200); // resolved and cached
    await t.database.db.execute(
      sql`UPDATE sessions SET revoked_at = ${t.app.clock.now().toISOString()}::timestamptz WHERE user_id = ${session.userId}::uuid`,
    );
    expect(await eventually(async () => (await self(session.cookie)) === 101)).toBe(true);
  });

  it('ends cached sessions when the account is closed elsewhere, and sees a KYC change at once', async () => {
    const session = await registerAndLogin(t.app);
    const swap = async () =>
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/exchange/swap',
          headers: session.headers,
          payload: { quoteId: '00000000-0000-4000-8000-000000000000' },
        })
      ).json().statusCode as number;
    expect(await swap()).toBe(143); // basic KYC missing (read with the cached session)
    await t.database.db.execute(sql`UPDATE users SET kyc_level = 1 WHERE id = ${session.userId}::uuid`);
    expect(await eventually(async () => (await swap()) === 104)).toBe(true); // past the gate: no such quote
    await t.database.db.execute(sql`UPDATE users SET status = 'closed' WHERE id = ${session.userId}::uuid`);
    expect(await eventually(async () => (await self(session.cookie)) === 101)).toBe(true);
  });

  it('follows the language the user switches to (User-Lang), cached session or not, so later messages use it', async () => {
    const session = await registerAndLogin(t.app);
    const selfIn = async (headers: Record<string, string>) =>
      (
        await t.app.inject({ method: 'GET', url: '/api/user/self', headers: { cookie: session.cookie, ...headers } })
      ).json().content.locale as string;
    expect(await selfIn({})).toBe('en-US'); // signed in in English; the session is now cached
    expect(await selfIn({ 'user-lang': 'zh-HK' })).toBe('zh-HK');
    expect(await selfIn({})).toBe('zh-HK'); // a call that does not say keeps it
    expect(await selfIn({ 'user-lang': 'fr-FR' })).toBe('zh-HK'); // and so does one naming a language the product lacks
    const message = await t.app.notices.notify({
      userId: session.userId,
      category: 'EXCHANGE',
      title: { 'en-US': 'Exchange completed', 'zh-HK': '兌換已完成' },
      body: { 'en-US': 'Done', 'zh-HK': '完成' },
    });
    expect(message?.title).toBe('兌換已完成');
    expect(await selfIn({ 'user-lang': 'en-US' })).toBe('en-US');
  });
});
