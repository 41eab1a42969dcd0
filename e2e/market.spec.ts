import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { E2E_MARKET } from './server-template.ts';

/**
 * The home market table end to end (the market coin row) against the production
 * build and its real price pipeline (the replay of the bundled BTC/ETH history, stablecoins at the
 * peg): every coin with its name, a trend line drawn from the last 24 hours, the 24 h change
 * coloured by its sign and the dollar price with separators and at least 2 decimals; after 15 s the
 * table asks the server again and shows the new answer without a page reload — in en-US and zh-HK,
 * at 1280 and 390 px (the two projects).
 */
const SCREENSHOT_DIR = join(dirname(fileURLToPath(import.meta.url)), 'artifacts', 'screenshots');
/** The table's refresh period (apps/web/src/features/market/api/get-market-prices.ts). */
const MARKET_REFRESH_MS = 15_000;

const COINS = {
  'en-US': {
    title: 'Markets',
    names: { BTC: 'Bitcoin', ETH: 'Ethereum', USDT: 'Tether', USDC: 'USD Coin', USDE: 'USDE stablecoin' },
  },
  'zh-HK': {
    title: '市場行情',
    names: { BTC: '比特幣', ETH: '以太坊', USDT: '泰達幣', USDC: '美元幣', USDE: 'USDE 穩定幣' },
  },
} as const;

interface MarketRow {
  coinCode: string;
  currentPrice: string;
  changePercent: string;
  lineCode: number[];
}

async function snap(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const file = `${testInfo.project.name}-${name}.png`;
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.getByTestId('market-table').screenshot({ path: join(SCREENSHOT_DIR, file), animations: 'disabled' });
  await testInfo.attach(name, { path: join(SCREENSHOT_DIR, file), contentType: 'image/png' });
}

/**
 * "97196.9" → "$97,196.90" (zh-HK "US$97,196.90", where "$" alone reads as Hong Kong dollars): how
 * the table must print a price the server sent (docs/money-format.md: at least 2 decimals, or the
 * price's own).
 */
function displayedPrice(currentPrice: string, locale: 'en-US' | 'zh-HK'): string {
  const [whole, fraction = ''] = currentPrice.split('.');
  const symbol = locale === 'zh-HK' ? 'US$' : '$';
  return `${symbol}${whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${fraction.padEnd(2, '0')}`;
}

/** The row of `coin` shows what the server answered for it. */
async function expectRowShows(page: Page, row: MarketRow, name: string, locale: 'en-US' | 'zh-HK'): Promise<void> {
  const line = page.getByTestId(`market-row-${row.coinCode}`);
  await expect(line.locator('th')).toContainText(row.coinCode);
  await expect(line.locator('th small')).toHaveText(name);
  await expect(line.getByTestId('market-price')).toHaveText(displayedPrice(row.currentPrice, locale));
  const direction = row.changePercent.startsWith('-') ? 'down' : /[1-9]/.test(row.changePercent) ? 'up' : 'flat';
  const change = line.getByTestId('market-change');
  await expect(change).toHaveText(`${direction === 'up' ? '+' : ''}${row.changePercent}%`);
  await expect(change).toHaveClass(new RegExp(`market__change--${direction}`));
  // The trend line has a point per value of the last 24 hours.
  const points = await line.locator('svg polyline').getAttribute('points');
  expect(points?.split(' ')).toHaveLength(Math.max(2, row.lineCode.length));
}

for (const locale of ['en-US', 'zh-HK'] as const) {
  test(`the home market table shows live prices and refreshes without a reload (${locale})`, async ({
    page,
  }, testInfo) => {
    await page.clock.install();
    const firstAnswer = page.waitForResponse(
      (response) => response.url().endsWith('/api/market/price') && response.ok(),
    );
    await page.goto(`/?locale=${locale}`);
    const first = ((await (await firstAnswer).json()) as { content: MarketRow[] }).content;
    expect(first.map((row) => row.coinCode)).toEqual(['BTC', 'ETH', 'USDT', 'USDC', 'USDE']);
    // Real prices from the replayed history, never zero; stablecoins at the 1 USD peg.
    expect(Number(first.find((row) => row.coinCode === 'BTC')!.currentPrice)).toBeGreaterThan(1000);
    expect(first.find((row) => row.coinCode === 'USDT')!.currentPrice).toMatch(/^1\.0+$/);
    // The run's market is pinned (server-template.ts): one coin up, one down and the stablecoins
    // flat, whatever the day, so every colour of the change column is drawn (and audited by axe).
    const changeOf = (coin: string) => first.find((row) => row.coinCode === coin)!.changePercent;
    expect(Number(changeOf(E2E_MARKET.up))).toBeGreaterThan(0);
    expect(Number(changeOf(E2E_MARKET.down))).toBeLessThan(0);
    expect(Number(changeOf('USDT'))).toBe(0);

    const table = page.getByTestId('market-table');
    await table.scrollIntoViewIfNeeded();
    await expect(table.locator('h2')).toHaveText(COINS[locale].title);
    for (const row of first)
      await expectRowShows(
        page,
        row,
        COINS[locale].names[row.coinCode as keyof (typeof COINS)[typeof locale]['names']],
        locale,
      );
    await snap(page, testInfo, `market-table-${locale}`);

    // A mark on the document: a reload would lose it.
    await page.evaluate(() => ((globalThis as unknown as { marketMark: number }).marketMark = 1));
    const refreshed = page.waitForResponse((response) => response.url().endsWith('/api/market/price') && response.ok());
    await page.clock.fastForward(MARKET_REFRESH_MS + 100);
    const second = ((await (await refreshed).json()) as { content: MarketRow[] }).content;
    for (const row of second)
      await expectRowShows(
        page,
        row,
        COINS[locale].names[row.coinCode as keyof (typeof COINS)[typeof locale]['names']],
        locale,
      );
    expect(await page.evaluate(() => (globalThis as unknown as { marketMark?: number }).marketMark)).toBe(1);
  });
}
