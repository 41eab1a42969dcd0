import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, mutationHeaders, registerAndLogin, type TestApp } from '../../../test/helpers.ts';

/**
 * Broadcast messages of the back office through the API on a fresh database:
 * a broadcast reaches each active user of its segment once, in the user's language ('verified' =
 * KYC level ≥ 1; closed accounts get nothing); support may list but not send (102); bad input names
 * the field and sends nothing; the send is in the audit log. Operators call with bearer tokens.
 */
let t: TestApp;
let compliance: string;
let support: string;
let admin: string;

beforeAll(async () => {
  t = await createTestApp();
  compliance = (await t.app.admin.createOperator('c1@example.com', 'compliance')).token;
  support = (await t.app.admin.createOperator('s1@example.com', 'support')).token;
  admin = (await t.app.admin.createOperator('a1@example.com', 'admin')).token;
});
afterAll(async () => {
  await t.close();
});

function call(token: string, method: 'GET' | 'POST', url: string, payload?: object) {
  return t.app.inject({
    method,
    url: `/api/admin${url}`,
    headers: { ...mutationHeaders(), authorization: `Bearer ${token}` },
    ...(payload ? { payload } : {}),
  });
}

const TEXTS = {
  titleEn: 'Scheduled maintenance',
  titleZh: '系統維護通知',
  bodyEn: 'Meridian will be unavailable on Sunday from 02:00 to 04:00 HKT.',
  bodyZh: 'Meridian 將於星期日凌晨 2 時至 4 時（香港時間）暫停服務。',
};

/** The messages a user holds, as stored (in the language of the user when written). */
async function messagesOf(userId: string): Promise<{ title: string; body: string }[]> {
  const result = await t.database.db.execute(
    sql`SELECT title, body FROM notice_messages WHERE user_id = ${userId} AND category = 'SYSTEM' ORDER BY id`,
  );
  return (result as unknown as { rows: { title: string; body: string }[] }).rows;
}

async function messageCount(): Promise<number> {
  const result = await t.database.db.execute(
    sql`SELECT count(*)::int AS n FROM notice_messages WHERE category = 'SYSTEM'`,
  );
  return Number((result as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0);
}

describe('broadcasts', () => {
  it('reach each active user of the segment once, in their language; listed newest first; audited', async () => {
    const verifiedEn = await registerAndLogin(t.app);
    const verifiedZh = await registerAndLogin(t.app);
    const unverified = await registerAndLogin(t.app);
    const closed = await registerAndLogin(t.app);
    await t.app.identity.setKycLevel(verifiedEn.userId, 1);
    await t.app.identity.setKycLevel(verifiedZh.userId, 2);
    await t.app.identity.setKycLevel(closed.userId, 1);
    await t.database.db.execute(sql`UPDATE users SET locale = 'zh-HK' WHERE id = ${verifiedZh.userId}`);
    await t.database.db.execute(sql`UPDATE users SET status = 'closed' WHERE id = ${closed.userId}`);
    const before = await messageCount();

    const sent = await call(compliance, 'POST', '/broadcasts', { ...TEXTS, segment: 'verified' });
    expect(sent.json().statusCode).toBe(200);
    expect(sent.json().content).toMatchObject({ ...TEXTS, segment: 'verified', recipientCount: 2 });
    expect(sent.json().content.operatorEmail).toBe('c1@example.com');

    expect(await messagesOf(verifiedEn.userId)).toEqual([{ title: TEXTS.titleEn, body: TEXTS.bodyEn }]);
    expect(await messagesOf(verifiedZh.userId)).toEqual([{ title: TEXTS.titleZh, body: TEXTS.bodyZh }]);
    expect(await messagesOf(unverified.userId)).toEqual([]);
    expect(await messagesOf(closed.userId)).toEqual([]);
    expect((await messageCount()) - before).toBe(2);

    const toAll = await call(admin, 'POST', '/broadcasts', {
      ...TEXTS,
      titleEn: 'New coins',
      titleZh: '新增幣種',
      segment: 'all',
    });
    expect(toAll.json().content.recipientCount).toBe(3);
    expect((await messagesOf(unverified.userId)).map((m) => m.title)).toEqual(['New coins']);
    expect((await messagesOf(verifiedZh.userId)).map((m) => m.title)).toEqual([TEXTS.titleZh, '新增幣種']);
    expect(await messagesOf(closed.userId)).toEqual([]);

    const list = await call(support, 'GET', '/broadcasts?pageID=1&pageSize=10');
    expect(list.json().statusCode).toBe(200);
    expect(list.json().content.totalCount).toBe(2);
    expect(list.json().content.list.map((b: { titleEn: string }) => b.titleEn)).toEqual(['New coins', TEXTS.titleEn]);

    const audit = await call(admin, 'GET', '/audit?action=sendBroadcast');
    const rows = audit.json().content.list as { operatorEmail: string; targetType: string; targetId: string }[];
    expect(rows).toHaveLength(2);
    expect(rows).toContainEqual(
      expect.objectContaining({
        operatorEmail: 'c1@example.com',
        targetType: 'broadcast',
        targetId: String(sent.json().content.id),
      }),
    );
  });

  it('support may read but not send (102), and nothing is sent', async () => {
    await registerAndLogin(t.app);
    const before = await messageCount();
    const refused = await call(support, 'POST', '/broadcasts', { ...TEXTS, segment: 'all' });
    expect(refused.json().statusCode).toBe(102);
    expect(await messageCount()).toBe(before);
    expect((await call(support, 'GET', '/broadcasts')).json().statusCode).toBe(200);
  });

  it('bad input names the field and sends nothing', async () => {
    await registerAndLogin(t.app);
    const before = await messageCount();
    const listed = (await call(admin, 'GET', '/broadcasts')).json().content.totalCount as number;

    const blank = await call(compliance, 'POST', '/broadcasts', { ...TEXTS, titleZh: '   ', segment: 'all' });
    expect(blank.json().statusCode).toBe(120);
    expect(blank.json().content.fields).toEqual([{ field: 'titleZh', message: 'This field is required' }]);

    const long = await call(compliance, 'POST', '/broadcasts', {
      ...TEXTS,
      titleEn: 'x'.repeat(121),
      bodyZh: '字'.repeat(2001),
      segment: 'all',
    });
    expect(long.json().statusCode).toBe(120);
    const fields = (long.json().content.fields as { field: string }[]).map((f) => f.field).sort();
    expect(fields).toEqual(['bodyZh', 'titleEn']);

    const missing = await call(compliance, 'POST', '/broadcasts', { titleEn: 'Hi', titleZh: '你好', bodyEn: 'Hi' });
    expect(missing.json().statusCode).toBe(120);
    expect((missing.json().content.fields as { field: string }[]).map((f) => f.field).sort()).toEqual([
      'bodyZh',
      'segment',
    ]);

    const badSegment = await call(compliance, 'POST', '/broadcasts', { ...TEXTS, segment: 'vip' });
    expect(badSegment.json().content.fields[0].field).toBe('segment');

    expect(await messageCount()).toBe(before);
    expect((await call(admin, 'GET', '/broadcasts')).json().content.totalCount).toBe(listed);
  });
});
