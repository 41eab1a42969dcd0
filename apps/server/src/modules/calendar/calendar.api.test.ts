import type { CalendarEvent } from '@meridian/contracts/calendar';
import { createTrustBodySchema } from '@meridian/contracts/trust';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerAndLogin, type TestApp, type TestSession } from '../../../test/helpers.ts';
import { testClock } from '../funds/funds.test-kit.ts';

/**
 * The calendar's calls (docs/calendar.md): the events of a range from the funds, loans,
 * trust and identity records of one user, the feed address and its rotation, and the public ICS
 * feed parsed as a calendar app reads it. The clock is Sunday 20 December 2026, 10:00 in Hong Kong.
 */

let t: TestApp;
let alice: TestSession;
let bob: TestSession;

const get = (url: string, headers: Record<string, string> = {}, remoteAddress?: string) =>
  t.app.inject({ method: 'GET', url, headers, ...(remoteAddress ? { remoteAddress } : {}) });

/** A parsed VEVENT: its properties (unfolded, parameters kept in the name, e.g. `DTSTART;VALUE=DATE`). */
type VEvent = Map<string, string>;

/** Parse ICS text as RFC 5545 says: CRLF lines, unfold continuation lines, one map per VEVENT. */
function parseIcs(text: string): { calendar: Map<string, string>; events: VEvent[] } {
  expect(text).toMatch(/^BEGIN:VCALENDAR\r\n/);
  expect(text.trimEnd()).toMatch(/END:VCALENDAR$/);
  const lines = text
    .replace(/\r\n[ \t]/g, '')
    .split('\r\n')
    .filter(Boolean);
  const calendar = new Map<string, string>();
  const events: VEvent[] = [];
  let current: VEvent | null = null;
  for (const line of lines) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon);
    const value = line.slice(colon + 1);
    if (line === 'BEGIN:VEVENT') current = new Map();
    else if (line === 'END:VEVENT') {
      events.push(current!);
      current = null;
    } else (current ?? calendar).set(name, value);
  }
  return { calendar, events };
}

async function seedDates(userId: string): Promise<void> {
  const db = t.database.db;
  await db.execute(sql`INSERT INTO fund_products (id, type, name_en, name_zh_hk, period_days, interest_date, maturity_date,
      min_minor, max_minor, limit_minor)
    VALUES ('FIXED_90D_TEST', 'FIXED', '90-day Fixed Fund', '90 日定期基金', 90, '2026-10-17', '2027-01-15', 10000, 50000000, 100000000)
    ON CONFLICT DO NOTHING`);
  await db.execute(sql`INSERT INTO fund_holdings (user_id, product_id, kind, shares_minor, day_start_date, interest_date, maturity_date)
    VALUES (${userId}, 'FIXED_90D_TEST', 'FIXED', 500000, '2026-10-16', '2026-10-17', '2027-01-15')`);
  await db.execute(sql`INSERT INTO fund_holdings (user_id, product_id, kind, shares_minor, day_start_date)
    VALUES (${userId}, 'EXW_CURRENT_PRODUCT', 'CURRENT', 100000, '2026-12-01')`);
  await db.execute(sql`INSERT INTO loans (user_id, status, loan_coin, collateral_minor, principal_minor,
      outstanding_principal_minor, term_days, annual_rate_bps, interest_minor, borrowed_at, repayment_date,
      idempotency_key, request_hash)
    VALUES (${userId}, 3, 'USDT', 10000000, 1000000000, 1000000000, 30, 1200, 9863014, now(), '2027-01-08', 'k1', 'h1')`);
  await t.app.trust.create(
    userId,
    createTrustBodySchema.parse({
      name: 'Family',
      termMonths: null,
      isRevocable: true,
      inactivityMonths: 6,
      beneficiaries: [{ name: 'Mei Chan', email: 'mei@example.com', sharePct: '100' }],
    }),
  );
  await db.execute(sql`INSERT INTO kyc_qualified (user_id, status, valid_until)
    VALUES (${userId}, 1, '2027-03-01T04:00:00Z')`);
}

beforeAll(async () => {
  t = await createTestApp({ clock: testClock('2026-12-20T10:00:00+08:00') });
  await t.app.loans.seed();
  [alice, bob] = [await registerAndLogin(t.app), await registerAndLogin(t.app)];
  await seedDates(alice.userId);
});

afterAll(async () => {
  await t.close();
});

describe('calendar', () => {
  it("lists the user's dates of a range in the request's language, and refuses a bad range naming the field", async () => {
    const url = '/api/calendar/events?from=2026-12-01&to=2027-12-31';
    const english = (await get(url, { cookie: alice.cookie, 'user-lang': 'en-US' })).json();
    expect(english.statusCode).toBe(200);
    const events = english.content.events as CalendarEvent[];
    const byKind = (kind: string) => events.filter((event) => event.kind === kind);
    expect(byKind('FUND_MATURITY')).toMatchObject([
      { day: '2027-01-15', isAllDay: true, title: 'Fixed fund matures: 90-day Fixed Fund', link: '/my/account/fund' },
    ]);
    // The first Hong Kong business day of each month: 1 Jan 2027 is a holiday and 2–3 Jan a weekend.
    expect(
      byKind('FUND_PAYOUT')
        .map((event) => event.day)
        .slice(0, 3),
    ).toEqual(['2026-12-01', '2027-01-04', '2027-02-01']);
    expect(byKind('LOAN_REPAYMENT')).toMatchObject([
      { day: '2027-01-08', title: 'Loan repayment due: 1,000.00 USDT (order 1)' },
    ]);
    expect(byKind('LOAN_GRACE_END')).toMatchObject([{ day: '2027-01-11' }]);
    const [deadline] = byKind('TRUST_DEADLINE');
    expect(deadline).toMatchObject({ isAllDay: false, link: expect.stringMatching(/^\/product\/trust\/\d+$/) });
    const reminders = byKind('TRUST_REMINDER');
    expect(
      reminders.map((item) => (Date.parse(deadline!.startsAt!) - Date.parse(item.startsAt!)) / 86_400_000),
    ).toEqual([30, 14, 3]);
    expect(byKind('QUALIFIED_RENEWAL')).toMatchObject([{ day: '2027-03-01', startsAt: '2027-03-01T04:00:00.000Z' }]);

    const chinese = (await get(url, { cookie: alice.cookie, 'user-lang': 'zh-HK' })).json();
    expect(chinese.content.events.map((event: { uid: string }) => event.uid)).toEqual(events.map((event) => event.uid));
    expect(chinese.content.events[0].title).toBe('活期基金派息日');

    // Bob holds nothing: his calendar is empty.
    expect((await get(url, { cookie: bob.cookie })).json().content.events).toEqual([]);

    const reversed = (
      await get('/api/calendar/events?from=2027-01-02&to=2027-01-01', { cookie: alice.cookie, 'user-lang': 'zh-HK' })
    ).json();
    expect(reversed.statusCode).toBe(120);
    expect(reversed.content.fields).toEqual([{ field: 'to', message: '結束日期不可早於開始日期' }]);
    const tooLong = (await get('/api/calendar/events?from=2026-01-01&to=2027-12-31', { cookie: alice.cookie })).json();
    expect(tooLong.content.fields).toEqual([{ field: 'to', message: 'A calendar range may span at most 400 days' }]);
    const badDay = (await get('/api/calendar/events?from=2026-02-30&to=2026-03-01', { cookie: alice.cookie })).json();
    expect(badDay.content.fields).toEqual([{ field: 'from', message: 'Enter a date as YYYY-MM-DD' }]);
    expect((await get(url)).json().statusCode).toBe(101);
  });

  it('serves the feed by its secret token as text/calendar with stable UIDs, and a rotated token answers 404', async () => {
    expect((await get('/api/calendar/feed')).json().statusCode).toBe(101);
    const first = (await get('/api/calendar/feed', { cookie: alice.cookie })).json().content;
    expect(first.url).toMatch(/^http:\/\/localhost:\d+\/api\/calendar\/feed\/[A-Za-z0-9_-]{43}\.ics$/);
    expect((await get('/api/calendar/feed', { cookie: alice.cookie })).json().content.url).toBe(first.url);
    const path = (url: string) => new URL(url).pathname;
    const token = path(first.url).split('/').pop()!.replace('.ics', '');
    // Only the token's hash is stored, never the token.
    const stored = await t.database.db.execute(
      sql`SELECT salt, token_hash FROM calendar_feeds WHERE user_id = ${alice.userId}`,
    );
    expect(JSON.stringify(stored)).not.toContain(token);

    await t.database.db.execute(sql`UPDATE users SET locale = 'en-US' WHERE id = ${alice.userId}`);
    const feed = await get(path(first.url));
    expect(feed.statusCode).toBe(200);
    expect(feed.headers['content-type']).toBe('text/calendar; charset=utf-8');
    const { calendar, events } = parseIcs(feed.body);
    expect(calendar.get('VERSION')).toBe('2.0');
    const uids = events.map((event) => event.get('UID')!);
    expect(new Set(uids).size).toBe(uids.length);
    const maturity = events.find((event) => event.get('UID')!.startsWith('fund-maturity-'))!;
    expect(maturity.get('DTSTART;VALUE=DATE')).toBe('20270115');
    expect(maturity.get('DTEND;VALUE=DATE')).toBe('20270116');
    expect(maturity.get('SUMMARY')).toBe('Fixed fund matures: 90-day Fixed Fund');
    expect(maturity.get('URL')).toMatch(/^http:\/\/localhost:\d+\/my\/account\/fund$/);
    const qualified = events.find((event) => event.get('UID')!.startsWith('qualified-renewal-'))!;
    expect(qualified.get('DTSTART')).toBe('20270301T040000Z');
    expect(qualified.get('DURATION')).toBe('PT30M');
    // The feed covers 31 days back from today (20 Dec): the payout of 1 Dec is in it.
    expect(uids.some((uid) => uid.startsWith('fund-payout-2026-12-'))).toBe(true);

    // The same UIDs on the next read, in the owner's language once it changes.
    await t.database.db.execute(sql`UPDATE users SET locale = 'zh-HK' WHERE id = ${alice.userId}`);
    const again = parseIcs((await get(path(first.url))).body);
    expect(again.events.map((event) => event.get('UID'))).toEqual(uids);
    expect(again.events.find((event) => event.get('UID') === maturity.get('UID'))!.get('SUMMARY')).toBe(
      '定期理財到期：90 日定期基金',
    );
    expect(again.calendar.get('X-WR-CALNAME')).toBe('Meridian 日曆');

    const rotated = await t.app.inject({ method: 'POST', url: '/api/calendar/feed/rotate', headers: alice.headers });
    const second = rotated.json().content;
    expect(second.url).not.toBe(first.url);
    const gone = await get(path(first.url));
    expect(gone.statusCode).toBe(404);
    expect(gone.json().statusCode).toBe(104);
    expect((await get(path(second.url))).statusCode).toBe(200);
    expect((await get('/api/calendar/feed', { cookie: alice.cookie })).json().content.url).toBe(second.url);
    // Another user's feed is another token; an unknown one is 404.
    const bobFeed = (await get('/api/calendar/feed', { cookie: bob.cookie })).json().content.url;
    expect(parseIcs((await get(path(bobFeed))).body).events).toEqual([]);
    expect((await get(`/api/calendar/feed/${'A'.repeat(43)}.ics`)).statusCode).toBe(404);
  });

  it('limits feed requests per IP like the other public routes, and documents the calls', async () => {
    const paths = (await get('/api/docs/json')).json().paths as Record<string, Record<string, unknown>>;
    expect(Object.keys(paths).filter((path) => path.startsWith('/api/calendar/'))).toEqual([
      '/api/calendar/events',
      '/api/calendar/feed',
      '/api/calendar/feed/rotate',
      '/api/calendar/feed/{file}',
    ]);
    const remoteAddress = '10.200.0.1';
    const statuses: number[] = [];
    for (let index = 0; index < 31; index += 1)
      statuses.push((await get(`/api/calendar/feed/${'B'.repeat(43)}.ics`, {}, remoteAddress)).statusCode);
    expect(statuses.slice(0, 30).every((status) => status === 404)).toBe(true);
    expect(statuses[30]).toBe(429);
  });
});
