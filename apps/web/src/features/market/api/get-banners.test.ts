import { describe, expect, it } from 'vitest';
import { readBannerList } from './get-banners.ts';

/** The banner list is read from `content.content` and checked field by field against the contract. */
describe('readBannerList', () => {
  const banner = {
    bannerId: '1',
    bannerImg: '/banners/earn.svg',
    webLink: '/product/earn',
    isBlank: false,
    title: 'Earn',
  };

  it('reads the banners under content.content', () => {
    expect(readBannerList({ content: [banner] })).toEqual([banner]);
  });

  it('drops entries that do not match the contract and refuses a body without a list', () => {
    expect(readBannerList({ content: [banner, { ...banner, isBlank: 'no' }, null] })).toEqual([banner]);
    expect(readBannerList({ content: 'x' })).toBeNull();
    expect(readBannerList(null)).toBeNull();
  });
});
