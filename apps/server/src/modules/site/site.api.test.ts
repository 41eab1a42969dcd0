import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({
    env: {
      SITE_LEGAL_ENTITY: 'Meridian Digital Limited',
      SITE_LICENCES:
        'Hong Kong Customs|Money Service Operator|12-34-56789; Companies Registry|Trust or company service provider',
      SITE_MINING_URL: 'https://mining.example.com',
      SITE_SOCIAL_TELEGRAM_URL: 'https://t.me/meridian',
    },
  });
});
afterAll(async () => t.close());

describe('GET /api/site', () => {
  it("answers anyone the operator's settings, hides unset links, and the top open fund rate", async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/site' });
    expect(response.statusCode).toBe(200);
    const { content } = response.json();
    expect(content).toMatchObject({
      legalEntity: 'Meridian Digital Limited',
      registeredAddress: null,
      licences: [
        { authority: 'Hong Kong Customs', licence: 'Money Service Operator', number: '12-34-56789' },
        { authority: 'Companies Registry', licence: 'Trust or company service provider', number: '' },
      ],
      // The registered address is not set (allowed outside production only): the page marks demo values.
      legalDetailsAreDemo: true,
      exchangeUrl: null,
      miningUrl: 'https://mining.example.com',
      social: [{ id: 'telegram', href: 'https://t.me/meridian' }],
    });
    // The seeded funds are open at start; the figure is the highest tier rate among them.
    expect(content.stats.topAnnualRateBps).toBeGreaterThan(0);
  });
});
