// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { createInstance } from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import enCommon from '../../../locales/en-US/common.json';
import { clearSession, setUserId } from '../../../lib/session.ts';
import { messagesQueryKey } from '../api/notice-api.ts';
import type { MessagePages } from '../lib/message-cache.ts';
import { message, page } from '../lib/message-fixtures.ts';
import { NotificationBell } from './notification-bell.tsx';

/**
 * The header bell: the unread dot and count come from the shared message cache; a guest
 * gets the plain link. The cache is filled by hand and `fetch` answers with the same page, so no
 * server is involved.
 */
async function renderBell(unreadCount: number) {
  const i18n = createInstance();
  await i18n.use(initReactI18next).init({
    lng: 'en-US',
    resources: { 'en-US': { common: enCommon } },
    defaultNS: 'common',
    react: { useSuspense: false },
  });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  const data: MessagePages = {
    pages: [page(1, unreadCount > 0 ? [message('m1')] : [message('m1', 'read')], { unreadCount, totalCount: 1 })],
    pageParams: [1],
  };
  client.setQueryData(messagesQueryKey('user-1'), data);
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify({ statusCode: 200, message: '', content: data.pages[0] }))),
  );
  render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <MemoryRouter>
          <NotificationBell />
        </MemoryRouter>
      </QueryClientProvider>
    </I18nextProvider>,
  );
}

describe('NotificationBell', () => {
  afterEach(() => {
    cleanup();
    clearSession();
    vi.unstubAllGlobals();
  });

  it('shows the unread dot and count for a signed-in user with unread messages', async () => {
    setUserId('user-1');
    await renderBell(2);
    const bell = screen.getByTestId('notification-bell');
    expect(bell.getAttribute('data-unread-count')).toBe('2');
    expect(bell.getAttribute('aria-label')).toBe('Messages (2)');
    expect(screen.queryByTestId('notification-bell-dot')).not.toBeNull();
    expect(bell.getAttribute('href')).toBe('/messages');
  });

  it('shows no dot when everything is read', async () => {
    setUserId('user-1');
    await renderBell(0);
    expect(screen.getByTestId('notification-bell').getAttribute('data-unread-count')).toBe('0');
    expect(screen.queryByTestId('notification-bell-dot')).toBeNull();
  });

  it('is the plain link for a guest, with no count and no preview', async () => {
    await renderBell(2);
    const bell = screen.getByTestId('notification-bell');
    expect(bell.getAttribute('data-unread-count')).toBeNull();
    expect(screen.queryByTestId('notification-bell-popover')).toBeNull();
  });
});
