import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { seedDemo } from '../../seed.ts';
import { banners } from './market.tables.ts';

describe('GET /api/market/banner/getList', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('lists nothing before any banner exists', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/market/banner/getList' });
    expect(response.json()).toEqual({ statusCode: 200, content: { content: [] }, message: 'Success' });
  });

  it('lists the seeded banners in order, titled and pictured in the caller language, and the seed is idempotent', async () => {
    await seedDemo(t.database.db);
    await seedDemo(t.database.db);
    const en = (await t.app.inject({ method: 'GET', url: '/api/market/banner/getList' })).json();
    expect(en.content.content.map((b: { bannerId: string }) => b.bannerId)).toEqual([
      'earn',
      'trust',
      'loan',
      'card',
      'exchange',
    ]);
    expect(en.content.content[0]).toEqual({
      bannerId: 'earn',
      bannerImg: '/banners/earn.svg',
      webLink: '/product/earn',
      isBlank: false,
      title: 'Earn up to 10.8% a year',
    });
    const zh = (
      await t.app.inject({ method: 'GET', url: '/api/market/banner/getList', headers: { 'User-Lang': 'zh-HK' } })
    ).json();
    expect(zh.content.content[0].title).toBe('年化收益高達 10.8%');
    // The image carries text: zh-HK callers get the Traditional Chinese one.
    expect(zh.content.content.map((b: { bannerImg: string }) => b.bannerImg)).toEqual(
      ['earn', 'trust', 'loan', 'card', 'exchange'].map((id) => `/banners/${id}.zh-HK.svg`),
    );
    expect(zh.message).toBe('操作成功');
  });

  it('shows the one image of a banner that has no zh-HK image to every language', async () => {
    await t.database.db.insert(banners).values({
      bannerId: 'plain',
      imagePath: '/banners/plain.png',
      webLink: '/',
      titleEn: 'Plain',
      titleZhHk: '簡單',
      sortOrder: 9,
    });
    const zh = (
      await t.app.inject({ method: 'GET', url: '/api/market/banner/getList', headers: { 'User-Lang': 'zh-HK' } })
    ).json();
    expect(zh.content.content.at(-1)).toMatchObject({
      bannerId: 'plain',
      bannerImg: '/banners/plain.png',
      title: '簡單',
    });
  });

  it('hides inactive banners', async () => {
    await t.database.db.update(banners).set({ isActive: false });
    const response = await t.app.inject({ method: 'GET', url: '/api/market/banner/getList' });
    expect(response.json().content.content).toEqual([]);
  });
});
