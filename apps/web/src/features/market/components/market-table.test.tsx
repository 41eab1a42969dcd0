// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen } from '@testing-library/react';
import { createInstance } from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import enMarket from '../../../locales/en-US/market.json';
import zhMarket from '../../../locales/zh-HK/market.json';
import { MARKET_REFRESH_MS } from '../api/get-market-prices.ts';
import { MarketTable } from './market-table.tsx';

/**
 * The home market table: coin, trend line, coloured change and dollar price from
 * `GET market/price`, refreshed on its own without a reload. `fetch` is stubbed (the server is
 * outside this test); the rows are the contract's.
 */
function envelope(btcPrice: string, btcChange: string) {
  return {
    statusCode: 200,
    message: 'Success',
    content: [
      {
        coinCode: 'BTC',
        currentPrice: btcPrice,
        changePercent: btcChange,
        lineCode: [97000, 96500, Number(btcPrice)],
        observedAt: '2026-11-20T23:00:00.000Z',
      },
      {
        coinCode: 'USDT',
        currentPrice: '1.00',
        changePercent: '0.00',
        lineCode: [1, 1],
        observedAt: '2026-11-20T23:00:00.000Z',
      },
    ],
  };
}

function stubFetch(body: unknown) {
  vi.stubGlobal(
    'fetch',
    vi.fn(
      async () => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } }),
    ),
  );
}

async function renderTable(locale: 'en-US' | 'zh-HK') {
  const i18n = createInstance();
  await i18n.use(initReactI18next).init({
    lng: locale,
    resources: { 'en-US': { market: enMarket }, 'zh-HK': { market: zhMarket } },
    react: { useSuspense: false },
  });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <MarketTable />
      </QueryClientProvider>
    </I18nextProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

beforeAll(() => {
  window.localStorage.clear();
});

describe('MarketTable', () => {
  it('shows each coin with its trend line, the change coloured and signed, and the price with separators', async () => {
    stubFetch(envelope('97196.90', '2.15'));
    await renderTable('en-US');
    const btc = await screen.findByTestId('market-row-BTC');
    expect(btc.textContent).toContain('Bitcoin');
    expect(btc.querySelector('[data-testid="market-price"]')?.textContent).toBe('$97,196.90');
    const change = btc.querySelector('[data-testid="market-change"]')!;
    expect(change.textContent).toBe('+2.15%');
    expect(change.className).toContain('market__change--up');
    expect(btc.querySelector('svg[role="img"] polyline')?.getAttribute('points')).toBe('0.0,11.0 60.0,34.0 120.0,2.0'); // the highest price at the top;
    expect(screen.getByTestId('market-row-USDT').querySelector('[data-testid="market-change"]')?.className).toContain(
      'market__change--flat',
    );
  });

  it('refreshes by itself every 15 s, without a reload', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    stubFetch(envelope('97196.90', '2.15'));
    await renderTable('en-US');
    await screen.findByText('$97,196.90');
    stubFetch(envelope('95000.00', '-0.25'));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(MARKET_REFRESH_MS + 100);
    });
    const btc = await screen.findByTestId('market-row-BTC');
    expect(btc.querySelector('[data-testid="market-price"]')?.textContent).toBe('$95,000.00');
    expect(btc.querySelector('[data-testid="market-change"]')?.className).toContain('market__change--down');
  });

  it('speaks Traditional Chinese', async () => {
    stubFetch(envelope('97196.90', '2.15'));
    await renderTable('zh-HK');
    expect(await screen.findByText('比特幣')).toBeTruthy();
    expect(screen.getByRole('heading', { name: '市場行情' })).toBeTruthy();
  });

  it('says prices are unavailable rather than showing made-up ones when the call fails', async () => {
    stubFetch({
      statusCode: 134,
      content: null,
      message: 'Prices are unavailable right now, please try again shortly',
    });
    await renderTable('en-US');
    // The hook retries once (after 1 s) before it gives up.
    expect(await screen.findByText(enMarket.unavailable, {}, { timeout: 4000 })).toBeTruthy();
    expect(screen.queryByTestId('market-row-BTC')).toBeNull();
  });
});
