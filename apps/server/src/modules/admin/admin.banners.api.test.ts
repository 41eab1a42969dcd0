import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, mutationHeaders, type TestApp } from '../../../test/helpers.ts';
import { seedDemo } from '../../seed.ts';

/**
 * Home-page banners in the back office through the API on a fresh
 * database with the demo banners: creating, editing and reordering show in the customer list
 * (`GET /api/market/banner/getList`); a scheduled banner is hidden before its start and after its
 * end; support may list but not write (102); a bad link or a missing title names the field and
 * changes nothing; every write is in the audit log. Operators call with bearer tokens.
 */
let t: TestApp;
let compliance: string;
let support: string;
let admin: string;

beforeAll(async () => {
  t = await createTestApp();
  await seedDemo(t.database.db);
  compliance = (await t.app.admin.createOperator('c1@example.com', 'compliance')).token;
  support = (await t.app.admin.createOperator('s1@example.com', 'support')).token;
  admin = (await t.app.admin.createOperator('a1@example.com', 'admin')).token;
});
afterAll(async () => {
  await t.close();
});

function call(token: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) {
  return t.app.inject({
    method,
    url: `/api/admin${url}`,
    headers: { ...mutationHeaders(), authorization: `Bearer ${token}` },
    ...(payload ? { payload } : {}),
  });
}

interface CustomerBanner {
  bannerId: string;
  bannerImg: string;
  webLink: string;
  isBlank: boolean;
  title: string;
}

async function customerBanners(locale: 'en-US' | 'zh-HK' = 'en-US'): Promise<CustomerBanner[]> {
  const response = await t.app.inject({
    method: 'GET',
    url: '/api/market/banner/getList',
    headers: { 'User-Lang': locale },
  });
  return response.json().content.content;
}

async function opsBanners(): Promise<{ id: string; state: string; titleEn: string }[]> {
  return (await call(support, 'GET', '/banners')).json().content;
}

const BODY = {
  titleEn: 'Refer a friend',
  titleZh: '推薦朋友',
  webLink: '/invite',
  isBlank: false,
  imagePath: '/banners/earn.svg',
  imagePathZhHk: '/banners/earn.zh-HK.svg',
  startsAt: null,
  endsAt: null,
  isActive: true,
};

const HOUR = 3_600_000;
// Dated by the app's clock, which decides what is live.
const at = (offsetMs: number) => new Date(t.app.clock.now().getTime() + offsetMs).toISOString();

describe('banners', () => {
  it('lists every banner to support in display order with its state', async () => {
    const response = await call(support, 'GET', '/banners');
    expect(response.json().statusCode).toBe(200);
    const list = response.json().content as { id: string; state: string; sortOrder: number }[];
    expect(list.map((b) => b.id)).toEqual(['earn', 'trust', 'loan', 'card', 'exchange']);
    expect(list.every((b) => b.state === 'live')).toBe(true);
  });

  it('a created banner shows last in the customer list in each language; an edit shows too', async () => {
    const created = await call(compliance, 'POST', '/banners', BODY);
    expect(created.json().statusCode).toBe(200);
    const banner = created.json().content;
    expect(banner).toMatchObject({ titleEn: 'Refer a friend', titleZh: '推薦朋友', state: 'live', sortOrder: 6 });

    const en = await customerBanners();
    expect(en.at(-1)).toEqual({
      bannerId: banner.id,
      bannerImg: '/banners/earn.svg',
      webLink: '/invite',
      isBlank: false,
      title: 'Refer a friend',
    });
    expect((await customerBanners('zh-HK')).at(-1)).toMatchObject({
      title: '推薦朋友',
      bannerImg: '/banners/earn.zh-HK.svg',
    });

    const edited = await call(admin, 'PUT', `/banners/${banner.id}`, {
      ...BODY,
      titleEn: 'Invite friends',
      webLink: 'https://meridian.example/invite',
      isBlank: true,
      imagePathZhHk: null,
    });
    expect(edited.json().statusCode).toBe(200);
    expect((await customerBanners()).at(-1)).toMatchObject({
      title: 'Invite friends',
      webLink: 'https://meridian.example/invite',
      isBlank: true,
    });
    expect((await customerBanners('zh-HK')).at(-1)?.bannerImg).toBe('/banners/earn.svg');

    const audit = await call(admin, 'GET', `/audit?targetType=banner&targetId=${banner.id}`);
    const rows = audit.json().content.list as { action: string; operatorEmail: string }[];
    expect(rows.map((r) => r.action).sort()).toEqual(['createBanner', 'updateBanner']);
    expect(rows).toContainEqual(expect.objectContaining({ action: 'createBanner', operatorEmail: 'c1@example.com' }));
  });

  it('reordering is reflected in the customer list and audited', async () => {
    const ids = (await opsBanners()).map((b) => b.id);
    const reversed = [...ids].reverse();
    const response = await call(compliance, 'POST', '/banners/order', { ids: reversed });
    expect(response.json().statusCode).toBe(200);
    expect(response.json().content.map((b: { id: string }) => b.id)).toEqual(reversed);
    expect((await customerBanners()).map((b) => b.bannerId)).toEqual(reversed);

    const partial = await call(compliance, 'POST', '/banners/order', { ids: reversed.slice(1) });
    expect(partial.json().statusCode).toBe(120);
    expect(JSON.stringify(partial.json().content)).toContain('ids');
    expect((await customerBanners()).map((b) => b.bannerId)).toEqual(reversed);

    const audit = await call(admin, 'GET', '/audit?action=reorderBanners');
    expect(audit.json().content.list.length).toBeGreaterThanOrEqual(1);
  });

  it('a scheduled banner is hidden before its start and after its end, and its state says so', async () => {
    const future = (
      await call(compliance, 'POST', '/banners', {
        ...BODY,
        titleEn: 'Future',
        startsAt: at(HOUR),
        endsAt: at(2 * HOUR),
      })
    ).json().content;
    const past = (
      await call(compliance, 'POST', '/banners', {
        ...BODY,
        titleEn: 'Past',
        startsAt: at(-2 * HOUR),
        endsAt: at(-HOUR),
      })
    ).json().content;
    const now = (
      await call(compliance, 'POST', '/banners', { ...BODY, titleEn: 'Now', startsAt: at(-HOUR), endsAt: at(HOUR) })
    ).json().content;
    const off = (await call(compliance, 'POST', '/banners', { ...BODY, titleEn: 'Off', isActive: false })).json()
      .content;
    expect([future.state, past.state, now.state, off.state]).toEqual(['scheduled', 'ended', 'live', 'off']);

    const shown = (await customerBanners()).map((b) => b.bannerId);
    expect(shown).toContain(now.id);
    expect(shown).not.toContain(future.id);
    expect(shown).not.toContain(past.id);
    expect(shown).not.toContain(off.id);

    // Moving the future banner's start into the past shows it.
    await call(compliance, 'PUT', `/banners/${future.id}`, { ...BODY, titleEn: 'Future', startsAt: at(-HOUR) });
    expect((await customerBanners()).map((b) => b.bannerId)).toContain(future.id);
    const states = Object.fromEntries((await opsBanners()).map((b) => [b.id, b.state]));
    expect(states[future.id]).toBe('live');
    expect(states[past.id]).toBe('ended');
  });

  it('support may read but not write (102), and nothing changes', async () => {
    const before = await opsBanners();
    const first = before[0]!;
    expect((await call(support, 'POST', '/banners', BODY)).json().statusCode).toBe(102);
    expect((await call(support, 'PUT', `/banners/${first.id}`, BODY)).json().statusCode).toBe(102);
    const order = before.map((b) => b.id).reverse();
    expect((await call(support, 'POST', '/banners/order', { ids: order })).json().statusCode).toBe(102);
    expect(await opsBanners()).toEqual(before);
  });

  it('a bad link, a missing title, an unknown image or an end before the start names the field and changes nothing', async () => {
    const before = await opsBanners();
    const first = before[0]!;
    const cases: [object, string][] = [
      [{ ...BODY, webLink: 'http://example.com' }, 'webLink'],
      [{ ...BODY, webLink: 'javascript:alert(1)' }, 'webLink'],
      [{ ...BODY, webLink: '//evil.example' }, 'webLink'],
      [{ ...BODY, titleZh: '  ' }, 'titleZh'],
      [{ ...BODY, titleEn: 'x'.repeat(81) }, 'titleEn'],
      [{ ...BODY, imagePath: '/secret.png' }, 'imagePath'],
      [{ ...BODY, startsAt: at(HOUR), endsAt: at(-HOUR) }, 'endsAt'],
    ];
    for (const [body, field] of cases) {
      for (const response of [
        await call(compliance, 'POST', '/banners', body),
        await call(compliance, 'PUT', `/banners/${first.id}`, body),
      ]) {
        expect(response.json().statusCode).toBe(120);
        const fields = response.json().content.fields as { field: string }[];
        expect(fields.map((f) => f.field)).toContain(field);
      }
    }
    const { titleEn: _missing, ...withoutTitle } = BODY;
    const missing = await call(compliance, 'POST', '/banners', withoutTitle);
    expect(missing.json().content.fields.map((f: { field: string }) => f.field)).toContain('titleEn');
    expect(await opsBanners()).toEqual(before);
  });

  it('editing an unknown banner answers 104', async () => {
    expect((await call(compliance, 'PUT', '/banners/nope', BODY)).json().statusCode).toBe(104);
  });
});
