// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { walletEndpoints } from '@meridian/contracts/wallet';
import {
  apiClient,
  buildUrl,
  callEndpoint,
  isSuccess,
  NETWORK_EXCEPTION_MESSAGE,
  setLoginExpiredHandler,
  unwrap,
  ApiError,
  type LoginExpiredEvent,
} from './api-client.ts';
import { bindFeedbackSink, type FeedbackEvent } from './feedback.ts';
import { STORAGE_KEYS } from './storage.ts';

/**
 * The HTTP client against a stubbed `fetch` (the network is outside our code): what it sends, what
 * it resolves to, and which messages it shows for each kind of answer (the envelope and its business codes).
 */

interface Captured {
  url: string;
  init: RequestInit;
}

let calls: Captured[];
let shown: FeedbackEvent[];
let unbind: () => void;
let loginExpired: ReturnType<typeof vi.fn<(event: LoginExpiredEvent) => void>>;

function answer(body: unknown, status = 200): void {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    }),
  );
}

function headersOf(call: Captured | undefined): Record<string, string> {
  return (call?.init.headers ?? {}) as Record<string, string>;
}

beforeEach(() => {
  calls = [];
  shown = [];
  unbind = bindFeedbackSink({ show: (event) => shown.push(event) });
  loginExpired = vi.fn<(event: LoginExpiredEvent) => void>();
  setLoginExpiredHandler(loginExpired);
  localStorage.clear();
  window.history.replaceState(null, '', '/my/security?tab=mfa#mobile');
});

afterEach(() => {
  unbind();
  setLoginExpiredHandler(null);
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('buildUrl', () => {
  it('prefixes /api, repeats array parameters and skips null and undefined', () => {
    expect(
      buildUrl('wallet/record', { coin: ['BTC', 'ETH'], status: null, type: undefined, pageID: 1, ok: true }),
    ).toBe('/api/wallet/record?coin=BTC&coin=ETH&pageID=1&ok=true');
    expect(buildUrl('/message/list', { list: [null, 'a', undefined] }, '/api/notice/')).toBe(
      '/api/notice/message/list?list=a',
    );
    expect(buildUrl('market/price')).toBe('/api/market/price');
  });
});

describe('what a request sends', () => {
  it('sends User-Lang with the stored locale on every request, and no JSON headers on GET', async () => {
    localStorage.setItem(STORAGE_KEYS.locale, 'zh-HK');
    answer({ statusCode: 200, content: { content: [] }, message: 'Success' });
    await apiClient.get('market/banner/getList', { params: { size: 5 } });
    const call = calls[0];
    expect(call?.url).toBe('/api/market/banner/getList?size=5');
    expect(call?.init.method).toBe('GET');
    expect(call?.init.body).toBeUndefined();
    expect(headersOf(call)).toMatchObject({ 'User-Lang': 'zh-HK' });
    expect(headersOf(call)).not.toHaveProperty('Content-Type');
    expect(headersOf(call)).not.toHaveProperty('X-Meridian-Client');
  });

  it('defaults User-Lang to en-US', async () => {
    answer({ statusCode: 200, content: null, message: '' });
    await apiClient.get('user/self');
    expect(headersOf(calls[0])['User-Lang']).toBe('en-US');
  });

  it('sends a JSON body, the JSON content type and the client header on non-GET calls', async () => {
    answer({ statusCode: 200, content: null, message: 'Saved' });
    await apiClient.post('user/info', { firstName: 'Ada' });
    await apiClient.delete('wallet/addressbook/7');
    expect(calls[0]?.init.body).toBe('{"firstName":"Ada"}');
    expect(headersOf(calls[0])).toMatchObject({ 'Content-Type': 'application/json', 'X-Meridian-Client': 'web' });
    // The server expects a JSON body whenever the JSON content type is sent.
    expect(calls[1]?.init.method).toBe('DELETE');
    expect(calls[1]?.init.body).toBe('{}');
    expect(headersOf(calls[1])).toMatchObject({ 'Content-Type': 'application/json', 'X-Meridian-Client': 'web' });
  });

  it('sends Silence: 1 for silent calls and api-version: 2.0 when asked', async () => {
    answer({ statusCode: 200, content: null, message: 'Success' });
    await apiClient.post('user/web/mobile/bind', {}, { silent: true, apiVersion: '2.0' });
    expect(headersOf(calls[0])).toMatchObject({ Silence: '1', 'api-version': '2.0' });
  });
});

describe('what a request resolves to and shows', () => {
  it('resolves a 200 GET to the envelope and shows nothing', async () => {
    answer({ statusCode: 200, content: { content: [{ bannerId: '1' }] }, message: 'Success' });
    const response = await apiClient.get<{ content: { bannerId: string }[] }>('market/banner/getList');
    expect(isSuccess(response)).toBe(true);
    expect(unwrap(response)).toEqual({ content: [{ bannerId: '1' }] });
    expect(shown).toEqual([]);
  });

  it('shows a success toast with the message for a 200 on a non-GET call', async () => {
    answer({ statusCode: 200, content: null, message: 'Address saved' });
    await apiClient.post('wallet/addressbook', { label: 'Cold wallet' });
    expect(shown).toEqual([{ kind: 'success', text: 'Address saved' }]);
  });

  it('with quietSuccess shows no success toast but still every error', async () => {
    answer({ statusCode: 200, content: null, message: 'Success' });
    await apiClient.post('exchange/swap', { quoteId: 'q' }, { quietSuccess: true });
    expect(shown).toEqual([]);
    expect(headersOf(calls[0])).not.toHaveProperty('Silence');
    answer({ statusCode: 131, content: null, message: 'This quote has expired' }, 422);
    await apiClient.post('exchange/swap', { quoteId: 'q' }, { quietSuccess: true });
    expect(shown).toEqual([{ kind: 'error', text: 'This quote has expired' }]);
  });

  it('shows nothing for a silent call, whatever the answer', async () => {
    answer({ statusCode: 200, content: null, message: 'Success' });
    await apiClient.post('notice/message/readAll', {}, { silent: true });
    answer({ statusCode: 130, content: null, message: 'Insufficient Balance' });
    await apiClient.post('fund/v2/subscribe', {}, { headers: { Silence: '1' } });
    expect(shown).toEqual([]);
  });

  it.each([103, 105, 106, 107, 108])(
    'shows code %i as an error notification with the message as description',
    async (code) => {
      answer({ statusCode: code, content: null, message: 'This function is temporarily unavailable' });
      const response = await apiClient.post('loan/borrow', {});
      expect(response.statusCode).toBe(code);
      expect(shown).toEqual([
        {
          kind: 'notification',
          title: 'common:feedback.attentionTitle',
          description: 'This function is temporarily unavailable',
        },
      ]);
    },
  );

  it('shows 143 KYC_REQUIRED as a prompt with a button to the missing step, coming back here', async () => {
    window.history.replaceState(null, '', '/account/wallet/withdraw/USDT');
    answer(
      {
        statusCode: 143,
        content: { step: 'basic', route: '/identity/basic', requiredLevel: 1, level: 0 },
        message: 'Complete basic identity verification first to use this',
      },
      403,
    );
    await apiClient.post('wallet/withdraw/check', {});
    expect(shown).toEqual([
      {
        kind: 'notification',
        title: 'common:feedback.kycRequiredTitle',
        description: 'Complete basic identity verification first to use this',
        action: {
          label: 'common:feedback.kycRequiredAction',
          to: '/identity/basic?returnTo=%2Faccount%2Fwallet%2Fwithdraw%2FUSDT',
        },
      },
    ]);
  });

  it('shows other codes as an error toast on non-GET calls and nothing on GET calls', async () => {
    answer({ statusCode: 130, content: null, message: 'Insufficient Balance' }, 422);
    const response = await apiClient.post('exchange/swap', {});
    expect(isSuccess(response)).toBe(false);
    expect(() => unwrap(response)).toThrow(ApiError);
    expect(shown).toEqual([{ kind: 'error', text: 'Insufficient Balance' }]);

    shown.length = 0;
    await apiClient.get('wallet/balance');
    answer({ statusCode: 107, content: null, message: 'Unavailable' });
    await apiClient.get('loan/config');
    expect(shown).toEqual([]);
  });

  it('on 101 shows an error notification and asks for login with returnTo, even on GET', async () => {
    answer({ statusCode: 101, content: null, message: 'Login has expired' }, 401);
    await apiClient.get('wallet/balance');
    expect(shown).toEqual([
      { kind: 'notification', title: 'common:feedback.loginExpiredTitle', description: 'Login has expired' },
    ]);
    expect(loginExpired).toHaveBeenCalledWith({
      returnTo: '/my/security?tab=mfa#mobile',
      message: 'Login has expired',
    });
  });

  it('on 101 does nothing when the call opts out of the login redirect', async () => {
    answer({ statusCode: 101, content: null, message: 'Login has expired' }, 401);
    const response = await apiClient.get('user/self', { skipLoginRedirect: true });
    expect(response.statusCode).toBe(101);
    expect(shown).toEqual([]);
    expect(loginExpired).not.toHaveBeenCalled();
  });

  it('on 101 of a silent call still asks for login but shows no notification', async () => {
    answer({ statusCode: 101, content: null, message: 'Login has expired' }, 401);
    await apiClient.post('notice/message/readAll', {}, { silent: true });
    expect(shown).toEqual([]);
    expect(loginExpired).toHaveBeenCalledTimes(1);
  });
});

describe('failures become the Network Exception envelope', () => {
  it('turns a failed fetch into statusCode 500 "Network Exception" and toasts it on non-GET only', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    expect(await apiClient.get('market/price')).toEqual({
      statusCode: 500,
      content: null,
      message: NETWORK_EXCEPTION_MESSAGE,
    });
    expect(shown).toEqual([]);
    expect(await apiClient.post('wallet/withdraw', {})).toEqual({
      statusCode: 500,
      content: null,
      message: 'Network Exception',
    });
    expect(shown).toEqual([{ kind: 'error', text: 'common:feedback.networkException' }]);
  });

  it('turns an answer that is not an envelope (a proxy error page) into the same envelope', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('<html>Bad gateway</html>', { status: 502 })),
    );
    expect(await apiClient.get('market/price')).toEqual({
      statusCode: 500,
      content: null,
      message: 'Network Exception',
    });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('{"hello":"world"}', { status: 200 })),
    );
    expect(await apiClient.get('market/price')).toEqual({
      statusCode: 500,
      content: null,
      message: 'Network Exception',
    });
  });

  it('aborts after 6000 ms', async () => {
    vi.useFakeTimers();
    let signal: AbortSignal | undefined;
    vi.stubGlobal(
      'fetch',
      vi.fn(
        (_url: string, init: RequestInit) =>
          new Promise((_resolve, reject) => {
            signal = init.signal ?? undefined;
            signal?.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')));
          }),
      ),
    );
    const pending = apiClient.post('loan/borrow', {});
    await vi.advanceTimersByTimeAsync(5999);
    expect(signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(signal?.aborted).toBe(true);
    expect(await pending).toEqual({ statusCode: 500, content: null, message: 'Network Exception' });
    expect(shown).toEqual([{ kind: 'error', text: 'common:feedback.networkException' }]);
  });

  it('shows nothing when the caller itself cancelled the call', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        (_url: string, init: RequestInit) =>
          new Promise((_resolve, reject) => {
            init.signal?.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')));
          }),
      ),
    );
    const controller = new AbortController();
    const pending = apiClient.post('exchange/swap', {}, { signal: controller.signal });
    controller.abort();
    expect((await pending).statusCode).toBe(500);
    expect(shown).toEqual([]);
  });
});

describe('callEndpoint', () => {
  it('takes method, path parameters and api-version from the descriptor, body and query from the input', async () => {
    answer({ statusCode: 200, content: { id: 7 }, message: 'Success' });
    await callEndpoint(walletEndpoints.cancelWithdrawal, { params: { id: 7 } });
    await callEndpoint(
      walletEndpoints.checkWithdrawal,
      { body: { coin: 'USDT', network: 'TRC20', address: 'T1', amount: '5' } },
      { silent: true },
    );
    await callEndpoint(walletEndpoints.listRecords, { query: { action: 'withdraw', pageID: 2, pageSize: 10 } });
    expect(calls.map((call) => [call.init.method, call.url])).toEqual([
      ['POST', '/api/wallet/withdraw/7/cancel'],
      ['POST', '/api/wallet/withdraw/check'],
      ['GET', '/api/wallet/record?action=withdraw&pageID=2&pageSize=10'],
    ]);
    expect(headersOf(calls[1])['api-version']).toBe('2.0');
    expect(headersOf(calls[0])['api-version']).toBeUndefined();
    expect(JSON.parse(String(calls[1]?.init.body))).toEqual({
      coin: 'USDT',
      network: 'TRC20',
      address: 'T1',
      amount: '5',
    });
  });
});
