import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAndLogin } from '../../../test/helpers.ts';
import { createKycKit, type KycKit } from './kyc.test-kit.ts';

/**
 * Announcements of changes of terms
 * through the real app: the effective date at least 7 Hong Kong working days ahead, counted across
 * HK public holidays (Christmas 2026, Lunar New Year 2027), refused on `effectiveOn` naming the
 * earliest date; the daily job messages every active user once, in their language, on the day.
 */
let kit: KycKit;

const change = (effectiveOn: string) => ({
  titleEn: 'New fee schedule',
  titleZh: '新收費表',
  bodyEn: 'Withdrawal fees change.',
  bodyZh: '提幣費用將會調整。',
  effectiveOn,
});
/** Noon in Hong Kong on a local date. */
const hkNoon = (date: string) => new Date(`${date}T04:00:00Z`);
const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

beforeAll(async () => {
  kit = await createKycKit();
});
afterAll(async () => {
  await kit?.close();
});

describe('scheduling a change of terms', () => {
  it('counts 7 Hong Kong working days across Christmas 2026 and Lunar New Year 2027', async () => {
    const { terms } = kit.t.app.kyc;
    // Monday 21 Dec 2026: 22, 23, 24, (25 and 26 holidays, weekend) 28, 29, 30, 31 → 31 Dec, not 30.
    expect(terms.earliestEffectiveOn(hkNoon('2026-12-21'))).toBe('2026-12-31');
    expect(terms.announceOnFor('2026-12-31')).toBe('2026-12-21');
    // Monday 1 Feb 2027: 2, 3, 4, 5, (8 and 9 Lunar New Year) 10, 11, 12 → 12 Feb.
    expect(terms.earliestEffectiveOn(hkNoon('2027-02-01'))).toBe('2027-02-12');
    await expect(
      terms.schedule('compliance@example.com', change('2026-12-30'), hkNoon('2026-12-21')),
    ).rejects.toMatchObject({
      field: 'effectiveOn',
      messageKey: 'validation.termsNoticeTooShort',
      params: { days: 7, date: '2026-12-31' },
    });
    await expect(
      terms.schedule('compliance@example.com', change('2027-02-11'), hkNoon('2027-02-01')),
    ).rejects.toMatchObject({ field: 'effectiveOn', params: { date: '2027-02-12' } });
    const scheduled = await terms.schedule('compliance@example.com', change('2027-02-12'), hkNoon('2027-02-01'));
    expect(scheduled).toMatchObject({ effectiveOn: '2027-02-12', announceOn: '2027-02-01', announcedAt: null });
  });

  it('refuses through the API on effectiveOn in the user language, needs compliance or admin, and lists', async () => {
    const earliest = kit.t.app.kyc.terms.earliestEffectiveOn();
    const tooSoon = kit.t.app.clock.now().toISOString().slice(0, 10);
    const refused = await kit.t.app.inject({
      method: 'POST',
      url: '/api/admin/terms-changes',
      headers: { authorization: `Bearer ${kit.complianceToken}`, 'user-lang': 'zh-HK' },
      payload: change(tooSoon),
    });
    expect(refused.json()).toMatchObject({
      statusCode: 120,
      content: {
        fields: [{ field: 'effectiveOn', message: `條款變更須提前 7 個工作日通知：最早生效日期為 ${earliest}` }],
      },
    });
    const malformed = (
      await kit.ops(kit.complianceToken, 'POST', '/terms-changes', { ...change('31/12/2026') })
    ).json();
    expect(malformed.content.fields).toEqual([{ field: 'effectiveOn', message: 'Enter a date as YYYY-MM-DD' }]);
    expect((await kit.ops(kit.viewerToken, 'POST', '/terms-changes', change(earliest))).json().statusCode).toBe(102);
    const before = (await kit.ops(kit.viewerToken, 'GET', '/terms-changes')).json().content.totalCount;

    const created = (await kit.ops(kit.complianceToken, 'POST', '/terms-changes', change(earliest))).json();
    expect(created.statusCode).toBe(200);
    expect(created.content).toMatchObject({ effectiveOn: earliest, createdBy: 'compliance@example.com' });
    const listed = (await kit.ops(kit.viewerToken, 'GET', '/terms-changes')).json().content;
    expect(listed.totalCount).toBe(before + 1);
    expect(listed.list.map((item: { id: string }) => item.id)).toContain(created.content.id);
  });
});

describe('the daily announcement job', () => {
  it('messages every active user once, in their language, on the announcement date', async () => {
    const english = await registerAndLogin(kit.t.app);
    const chinese = await registerAndLogin(kit.t.app);
    const closed = await registerAndLogin(kit.t.app);
    await kit.t.database.db.execute(sql`UPDATE users SET locale = 'zh-HK' WHERE id = ${chinese.userId}::uuid`);
    await kit.t.database.db.execute(sql`UPDATE users SET status = 'closed' WHERE id = ${closed.userId}::uuid`);
    // Effective Friday 15 Jan 2027, announced Wednesday 6 Jan (scheduled on 4 Jan).
    const { terms } = kit.t.app.kyc;
    const scheduled = await terms.schedule('compliance@example.com', change('2027-01-15'), hkNoon('2027-01-04'));
    expect(scheduled.announceOn).toBe('2027-01-06');
    const activeCount = Number(
      rowsOf<{ n: string | number }>(
        await kit.t.database.db.execute(sql`SELECT count(*) AS n FROM users WHERE status = 'active'`),
      )[0]!.n,
    );
    // As the scheduler runs it: in its transaction (on PGlite the only connection).
    const run = (date: string) => kit.t.database.db.transaction((tx) => terms.runAnnouncements(hkNoon(date), tx));
    // The day before: changes scheduled earlier in this file and due by then go out, not this one.
    await run('2027-01-05');
    const pending = (await kit.ops(kit.viewerToken, 'GET', '/terms-changes?pageSize=100')).json().content.list;
    expect(pending.find((item: { id: string }) => item.id === scheduled.id).announcedAt).toBeNull();
    // On the day: this one, to every active user; run again the same day or the next: nothing more.
    expect(await run('2027-01-06')).toEqual({ announced: 1, messages: activeCount });
    expect(await run('2027-01-06')).toEqual({ announced: 0, messages: 0 });
    expect(await run('2027-01-07')).toEqual({ announced: 0, messages: 0 });

    const stored = rowsOf<{ user_id: string; title: string; body: string }>(
      await kit.t.database.db.execute(
        sql`SELECT user_id, title, body FROM notice_messages WHERE category = 'SYSTEM' AND body LIKE '%2027-01-15%'`,
      ),
    );
    const byUser = new Map(stored.map((row) => [row.user_id, row]));
    expect(stored).toHaveLength(activeCount);
    expect(byUser.get(english.userId)).toEqual({
      user_id: english.userId,
      title: 'New fee schedule',
      body: 'Withdrawal fees change.\n\nThese changes apply from 2027-01-15.',
    });
    expect(byUser.get(chinese.userId)).toEqual({
      user_id: chinese.userId,
      title: '新收費表',
      body: '提幣費用將會調整。\n\n以上變更將於 2027-01-15 起生效。',
    });
    expect(byUser.has(closed.userId)).toBe(false);
    const listed = (await kit.ops(kit.viewerToken, 'GET', '/terms-changes?pageSize=100')).json().content.list;
    expect(listed.find((item: { id: string }) => item.id === scheduled.id).announcedAt).not.toBeNull();
  });
});
