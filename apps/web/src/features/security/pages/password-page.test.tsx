// @vitest-environment jsdom
import type { SecurityConfig } from '@meridian/contracts/identity';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { polyfillJsdom, renderInLocale } from '../testing/render-page.tsx';
import { ResetPassPage } from './password-page.tsx';

const config = vi.hoisted(() => ({ data: undefined as SecurityConfig | undefined }));
const changePassword = vi.hoisted(() => vi.fn());

vi.mock('../../../lib/get-security-config.ts', () => ({ useSecurityConfig: () => config }));
vi.mock('../../../lib/get-self.ts', () => ({ useSelf: () => ({ data: { email: 'demo@meridian.test' } }) }));
vi.mock('../../../lib/send-email-code.ts', () => ({ sendEmailCode: vi.fn() }));
vi.mock('../api/change-password.ts', () => ({ changePassword }));
vi.mock('../../../components/require-user.tsx', () => ({
  RequireUser: ({ children }: { children: ReactNode }) => children,
}));
vi.mock('../../../components/page-frame.tsx', () => ({
  PageFrame: ({ children }: { children: ReactNode }) => children,
}));

const BASE: SecurityConfig = {
  security: 0,
  mfa: [],
  login: { email: 1, mfa: 0 },
  trade: { email: 1, mfa: 0, security: 0 },
  mobile: 0,
  withdrawalHoldUntil: null,
};

const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const submit = (name: string) => act(async () => fireEvent.click(screen.getByRole('button', { name })));

/** `/my/security/password`: the new password rules, the email code (and authenticator), the result. */
// The first render loads Ant Design: seconds on a machine shared by parallel builds.
describe('ResetPassPage', { timeout: 30_000 }, () => {
  beforeAll(polyfillJsdom);
  afterEach(() => {
    cleanup();
    changePassword.mockReset();
  });

  it('changes the password with the email code, then says other devices were signed out', async () => {
    config.data = BASE;
    changePassword.mockResolvedValue({ statusCode: 200, message: 'Success', content: null });
    await renderInLocale(<ResetPassPage />, 'en-US');
    expect(screen.queryByTestId('mfa-code')).toBeNull();
    type('Current password', 'old password');
    type('New password', 'new password');
    type('Confirm password', ' new password ');
    fireEvent.change(screen.getByTestId('email-code'), { target: { value: '123456' } });
    await submit('Change password');
    await waitFor(() => expect(changePassword).toHaveBeenCalledTimes(1));
    expect(changePassword.mock.calls[0]?.[0]).toMatchObject({
      oldPassword: 'old password',
      password: 'new password',
      emailCaptcha: '123456',
    });
    expect(await screen.findByText('Password changed')).toBeTruthy();
    expect(screen.getByText('Other devices were signed out, and withdrawals are on hold for 24 hours.')).toBeTruthy();
  });

  it('asks for the authenticator code once one is bound', async () => {
    config.data = { ...BASE, mfa: ['google'] };
    await renderInLocale(<ResetPassPage />, 'en-US');
    expect(screen.getByTestId('mfa-code')).toBeTruthy();
  });

  it('refuses a short password and a different confirmation in Traditional Chinese, without a call', async () => {
    config.data = BASE;
    await renderInLocale(<ResetPassPage />, 'zh-HK');
    type('目前密碼', 'old password');
    type('新密碼', ' short  ');
    type('確認密碼', 'other');
    fireEvent.change(screen.getByTestId('email-code'), { target: { value: '123456' } });
    await submit('更改密碼');
    expect(await screen.findByText('密碼最少需要 8 個字元')).toBeTruthy();
    expect(await screen.findByText('兩次輸入的密碼不一致')).toBeTruthy();
    expect(changePassword).not.toHaveBeenCalled();
  });
});
