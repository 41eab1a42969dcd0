// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { createInstance } from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import enExchange from '../../../locales/en-US/exchange.json';
import { clearSession, setUserId } from '../../../lib/session.ts';
import { ExchangePanel } from './exchange-panel.tsx';

/**
 * The exchange panel's quote as a query: a guest sees the login button; a signed-in
 * user asks a quote, sees it with its countdown, and a refusal shows the server's words at the
 * amount. `fetch` answers by path with recorded-shape envelopes, so no server is involved.
 */
const QUOTE = {
  quoteId: '00000000-0000-4000-8000-000000000001',
  from: 'USDT',
  to: 'USDE',
  side: 'from',
  rate: '0.999',
  spreadBps: 10,
  fromAmount: '100.000000',
  toAmount: '99.900000',
  expiresAt: '2026-11-24T12:00:10.000Z',
};
const BALANCE = {
  wallet: { accounts: [{ assets: [{ coinCode: 'USDT', type: 'available', amount: '10250.000000' }] }] },
};

async function renderPanel(rateAnswer: { statusCode: number; message: string; content: unknown }) {
  const i18n = createInstance();
  await i18n.use(initReactI18next).init({
    lng: 'en-US',
    resources: { 'en-US': { exchange: enExchange } },
    defaultNS: 'exchange',
    react: { useSuspense: false },
  });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const fetchMock = vi.fn(async (url: string) => {
    const answer = url.includes('exchange/rate') ? rateAnswer : { statusCode: 200, message: '', content: BALANCE };
    return new Response(JSON.stringify(answer));
  });
  vi.stubGlobal('fetch', fetchMock);
  render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <MemoryRouter>
          <ExchangePanel />
        </MemoryRouter>
      </QueryClientProvider>
    </I18nextProvider>,
  );
  return fetchMock;
}

afterEach(() => {
  cleanup();
  clearSession();
  vi.unstubAllGlobals();
});

describe('ExchangePanel', () => {
  it('asks a guest to log in', async () => {
    await renderPanel({ statusCode: 200, message: '', content: QUOTE });
    expect(screen.getByTestId('exchange-login-submit').textContent).toBe(enExchange.form.loginToExchange);
  });

  it('asks a quote on request and shows it with its countdown', async () => {
    setUserId('user-1');
    const fetchMock = await renderPanel({ statusCode: 200, message: '', content: QUOTE });
    fireEvent.change(screen.getByTestId('exchange-from-amount'), { target: { value: '100' } });
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('exchange/rate'))).toBe(false);
    fireEvent.click(await screen.findByTestId('quote-get'));
    expect((await screen.findByTestId('quote-receive')).textContent).toBe('99.90 USDE');
    expect((screen.getByTestId('exchange-to-amount') as HTMLInputElement).value).toBe('99.900000');
    expect(screen.getByTestId('quote-countdown')).toBeTruthy();
    expect(screen.getByTestId('quote-confirm')).toBeTruthy();
  });

  it("shows a refused quote's message at the amount, and no quote", async () => {
    setUserId('user-1');
    await renderPanel({ statusCode: 422, message: 'Below the minimum order amount', content: null });
    fireEvent.change(screen.getByTestId('exchange-from-amount'), { target: { value: '5' } });
    fireEvent.click(await screen.findByTestId('quote-get'));
    expect((await screen.findByTestId('exchange-amount-error')).textContent).toBe('Below the minimum order amount');
    expect(screen.queryByTestId('exchange-quote')).toBeNull();
  });
});
