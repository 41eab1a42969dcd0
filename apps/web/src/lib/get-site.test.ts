import { describe, expect, it } from 'vitest';
import { EMPTY_SITE_INFO, formatRateBps, readSiteInfo } from './get-site.ts';

describe('readSiteInfo', () => {
  it('keeps the well-formed parts of the answer and drops links that are not https', () => {
    expect(
      readSiteInfo({
        legalEntity: 'Meridian Digital Limited',
        registeredAddress: null,
        licences: [{ authority: 'SFC', licence: 'Type 1', number: 'AAA111' }, { authority: 'broken' }],
        legalDetailsAreDemo: true,
        exchangeUrl: 'http://exchange.example.com',
        miningUrl: 'https://mining.example.com',
        social: [
          { id: 'x', href: 'https://x.com/meridian' },
          { id: 'myspace', href: 'https://myspace.com/m' },
          { id: 'telegram', href: 'javascript:alert(1)' },
        ],
        stats: { topAnnualRateBps: 1080 },
      }),
    ).toEqual({
      legalEntity: 'Meridian Digital Limited',
      registeredAddress: null,
      licences: [{ authority: 'SFC', licence: 'Type 1', number: 'AAA111' }],
      legalDetailsAreDemo: true,
      exchangeUrl: null,
      miningUrl: 'https://mining.example.com',
      social: [{ id: 'x', href: 'https://x.com/meridian' }],
      stats: { topAnnualRateBps: 1080 },
    });
    expect(readSiteInfo(null)).toBe(EMPTY_SITE_INFO);
    expect(readSiteInfo({ stats: { topAnnualRateBps: '1080' } }).stats.topAnnualRateBps).toBeNull();
  });

  it('writes a rate in basis points as the tile reads it', () => {
    expect([1080, 600, 365, 1000].map(formatRateBps)).toEqual(['10.8%', '6%', '3.65%', '10%']);
  });
});
