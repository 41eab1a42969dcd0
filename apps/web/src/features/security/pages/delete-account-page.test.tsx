// @vitest-environment jsdom
import type { DeletionState, SupportRequest } from '@meridian/contracts/support';
import { supportEndpoints } from '@meridian/contracts/support';
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { polyfillJsdom, renderInLocale } from '../testing/render-page.tsx';
import { DeleteAccountPage } from './delete-account-page.tsx';

const deletion = vi.hoisted(() => ({ state: { isPending: false, isSuccess: true, data: undefined as unknown } }));
const openSecurityCheck = vi.hoisted(() => vi.fn());

vi.mock('../api/get-deletion-request.ts', () => ({
  deletionRequestKey: ['support', 'deletion'],
  useDeletionRequest: () => deletion.state,
}));
vi.mock('../../../stores/modal-store.ts', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  openSecurityCheck,
}));
vi.mock('../../../components/require-user.tsx', () => ({
  RequireUser: ({ children }: { children: ReactNode }) => children,
}));
vi.mock('../../../components/page-frame.tsx', () => ({
  PageFrame: ({ children }: { children: ReactNode }) => children,
}));

function withRequest(request: SupportRequest | null) {
  const data: DeletionState = { request };
  deletion.state = { isPending: false, isSuccess: true, data };
}

const request = (status: SupportRequest['status'], reply: string | null = null): SupportRequest => ({
  id: 'r1',
  kind: 'ACCOUNT_DELETION',
  status,
  reason: 'Moving abroad',
  reply,
  createdAt: '2026-01-02T03:04:05.000Z',
  updatedAt: '2026-01-02T03:04:05.000Z',
});

const submitButton = () => screen.getByTestId('delete-submit') as HTMLButtonElement;
const tick = () => fireEvent.click(screen.getByTestId('delete-understood'));
const typeReason = (text: string) =>
  fireEvent.change(screen.getByTestId('deletion-reason'), { target: { value: text } });

/**
 * Deleting the account is a request to customer service (docs/identity.md): sent with a reason
 * after "I understand" and the security check, and not again while one is open.
 */
// The first render loads Ant Design: seconds on a machine shared by parallel builds.
describe('DeleteAccountPage', { timeout: 30_000 }, () => {
  beforeAll(polyfillJsdom);
  afterEach(() => {
    cleanup();
    openSecurityCheck.mockReset();
  });

  it('sends only once understood and with a reason, through the security check, with the reason trimmed', async () => {
    withRequest(null);
    await renderInLocale(<DeleteAccountPage />, 'en-US');
    expect(screen.getByText('Deleting your account cannot be undone')).toBeTruthy();
    expect(submitButton().disabled).toBe(true);
    act(() => typeReason('   '));
    act(tick);
    expect(submitButton().disabled).toBe(true);
    act(() => typeReason('  Moving abroad  '));
    expect(submitButton().disabled).toBe(false);
    act(tick);
    expect(submitButton().disabled).toBe(true);
    act(tick);
    act(() => fireEvent.click(submitButton()));
    expect(openSecurityCheck).toHaveBeenCalledTimes(1);
    const opened = openSecurityCheck.mock.calls[0]?.[0];
    expect(opened.endpoint).toBe(supportEndpoints.requestDeletion);
    expect(opened.input).toEqual({ body: { reason: 'Moving abroad' } });
  });

  it('clears the form once the security check succeeds', async () => {
    withRequest(null);
    const { queryClient } = await renderInLocale(<DeleteAccountPage />, 'en-US');
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    act(() => typeReason('Moving abroad'));
    act(tick);
    act(() => fireEvent.click(submitButton()));
    await act(async () => openSecurityCheck.mock.calls[0]?.[0].onSuccess());
    expect((screen.getByTestId('deletion-reason') as HTMLTextAreaElement).value).toBe('');
    expect(submitButton().disabled).toBe(true);
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['support', 'deletion'] });
  });

  it.each(['PENDING', 'IN_PROGRESS'] as const)('an open (%s) request: its status, no new request', async (status) => {
    withRequest(request(status));
    await renderInLocale(<DeleteAccountPage />, 'en-US');
    expect(screen.getByTestId('deletion-status').textContent).toBe(status === 'PENDING' ? 'Pending' : 'In progress');
    expect(screen.getByTestId('deletion-reply').textContent).toBe('No reply yet');
    expect(screen.queryByTestId('delete-submit')).toBeNull();
    expect(screen.getByText('Your request is being handled. You can send a new one once it is decided.')).toBeTruthy();
  });

  it('a decided request shows the reply and lets the user send a new one', async () => {
    withRequest(request('REJECTED', 'Please close your loan first.'));
    await renderInLocale(<DeleteAccountPage />, 'en-US');
    expect(screen.getByTestId('deletion-status').textContent).toBe('Rejected');
    expect(screen.getByTestId('deletion-reply').textContent).toBe('Please close your loan first.');
    expect(screen.getByTestId('delete-submit')).toBeTruthy();
  });

  it('reads in Traditional Chinese (Hong Kong)', async () => {
    withRequest(request('PENDING'));
    await renderInLocale(<DeleteAccountPage />, 'zh-HK');
    const zh = (await import('../../../locales/zh-HK/identity.json')).default.delete;
    expect(screen.getByText(zh.warningTitle)).toBeTruthy();
    expect(screen.getByTestId('deletion-status').textContent).toBe(zh.statuses.PENDING);
    expect(screen.getByTestId('deletion-reply').textContent).toBe(zh.noReply);
    expect(screen.queryByText('Pending')).toBeNull();
  });

  it('shows nothing to send while the latest request is loading', async () => {
    deletion.state = { isPending: true, isSuccess: false, data: undefined };
    await renderInLocale(<DeleteAccountPage />, 'en-US');
    expect(screen.queryByTestId('delete-submit')).toBeNull();
    expect(screen.queryByTestId('deletion-request')).toBeNull();
  });
});
