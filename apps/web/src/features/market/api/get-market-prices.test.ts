import { describe, expect, it } from 'vitest';
import { readMarketPriceList } from './get-market-prices.ts';

/** The market list is checked row by row against the contract before the table shows it. */
describe('readMarketPriceList', () => {
  const btc = {
    coinCode: 'BTC',
    currentPrice: '97196.90',
    changePercent: '-1.25',
    lineCode: [97000, 97196.9],
    observedAt: '2026-11-20T23:00:00.000Z',
  };

  it('reads the rows of the contract', () => {
    expect(readMarketPriceList([btc])).toEqual([btc]);
  });

  it('drops rows that break the contract or repeat a coin, and refuses a body that is no list', () => {
    const rows = readMarketPriceList([
      btc,
      { ...btc },
      { ...btc, coinCode: 'DOGE' },
      { ...btc, coinCode: 'ETH', currentPrice: 3712 },
      null,
    ]);
    expect(rows).toEqual([btc]);
    expect(readMarketPriceList({ content: [btc] })).toBeNull();
  });
});
