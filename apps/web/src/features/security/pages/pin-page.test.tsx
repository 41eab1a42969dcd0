// @vitest-environment jsdom
import type { SecurityConfig } from '@meridian/contracts/identity';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { polyfillJsdom, renderInLocale } from '../testing/render-page.tsx';
import { SetPinPage } from './pin-page.tsx';

const config = vi.hoisted(() => ({ data: undefined as SecurityConfig | undefined }));
const setSecurityPassword = vi.hoisted(() => vi.fn());
const sendEmailCode = vi.hoisted(() => vi.fn());
const navigate = vi.hoisted(() => vi.fn());

vi.mock('../../../lib/get-security-config.ts', () => ({ useSecurityConfig: () => config }));
vi.mock('../../../lib/get-self.ts', () => ({ useSelf: () => ({ data: { email: 'demo@meridian.test' } }) }));
vi.mock('../../../lib/send-email-code.ts', () => ({ sendEmailCode }));
vi.mock('../api/set-security-password.ts', () => ({ setSecurityPassword }));
vi.mock('../../../components/require-user.tsx', () => ({
  RequireUser: ({ children }: { children: ReactNode }) => children,
}));
vi.mock('../../../components/page-frame.tsx', () => ({
  PageFrame: ({ children }: { children: ReactNode }) => children,
}));
vi.mock('react-router', async (importOriginal) => ({
  ...(await importOriginal<Record<string, unknown>>()),
  useNavigate: () => navigate,
}));

const NOT_SET: SecurityConfig = {
  security: 0,
  mfa: [],
  login: { email: 1, mfa: 0 },
  trade: { email: 1, mfa: 0, security: 0 },
  mobile: 0,
  withdrawalHoldUntil: null,
};
const SET_WITH_AUTHENTICATOR: SecurityConfig = {
  ...NOT_SET,
  security: 1,
  mfa: ['google'],
  trade: { email: 1, mfa: 1, security: 1 },
};

const field = (testId: string) => screen.getByTestId(testId) as HTMLInputElement;
const type = (testId: string, value: string) => fireEvent.change(field(testId), { target: { value } });
const submit = () => act(async () => fireEvent.click(screen.getByTestId('pin-submit')));

/** `/my/security/pin`: the trading password is six digits, typed twice, confirmed by the security check's factors. */
// The first render loads Ant Design: seconds on a machine shared by parallel builds.
describe('SetPinPage', { timeout: 30_000 }, () => {
  beforeAll(polyfillJsdom);
  afterEach(() => {
    cleanup();
    setSecurityPassword.mockReset();
    navigate.mockReset();
  });

  it('first time: asks for the email code only, and sends the six digits with it', async () => {
    config.data = NOT_SET;
    await renderInLocale(<SetPinPage />, 'en-US');
    expect(screen.getByTestId('pin-submit').textContent).toContain('Set security code');
    expect(screen.getByTestId('email-code')).toBeTruthy();
    expect(screen.queryByTestId('security-password')).toBeNull();
    expect(screen.queryByTestId('mfa-code')).toBeNull();
    setSecurityPassword.mockResolvedValue({
      statusCode: 200,
      message: 'Success',
      content: { ...NOT_SET, security: 1 },
    });
    type('pin-new', '246810');
    type('pin-confirm', '246810');
    type('email-code', '123456');
    await submit();
    await waitFor(() => expect(setSecurityPassword).toHaveBeenCalledTimes(1));
    expect(setSecurityPassword.mock.calls[0]?.[0]).toMatchObject({
      newSecurityPassword: '246810',
      confirm: '246810',
      emailCaptcha: '123456',
    });
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/my/security'));
  });

  it('changing it: also asks for the current security password and the authenticator code', async () => {
    config.data = SET_WITH_AUTHENTICATOR;
    await renderInLocale(<SetPinPage />, 'en-US');
    expect(screen.getByTestId('pin-submit').textContent).toContain('Change security code');
    expect(screen.getByTestId('security-password')).toBeTruthy();
    expect(screen.getByTestId('mfa-code')).toBeTruthy();
  });

  it('refuses digits that are not six, and a confirmation that differs, without calling the server', async () => {
    config.data = NOT_SET;
    await renderInLocale(<SetPinPage />, 'en-US');
    type('pin-new', '12345');
    type('pin-confirm', '123456');
    type('email-code', '123456');
    await submit();
    expect(await screen.findByText('Enter the 6-digit code')).toBeTruthy();
    expect(await screen.findByText('The two passwords do not match')).toBeTruthy();
    expect(setSecurityPassword).not.toHaveBeenCalled();
  });

  it('says so in Traditional Chinese (Hong Kong)', async () => {
    config.data = NOT_SET;
    await renderInLocale(<SetPinPage />, 'zh-HK');
    expect(screen.getByTestId('pin-submit').textContent).toContain('設定安全碼');
    type('pin-new', '123456');
    type('pin-confirm', '654321');
    await submit();
    expect(await screen.findByText('兩次輸入的密碼不一致')).toBeTruthy();
    expect(setSecurityPassword).not.toHaveBeenCalled();
  });

  it('a refused email code stays on the page and says why', async () => {
    config.data = NOT_SET;
    setSecurityPassword.mockResolvedValue({
      statusCode: 119,
      message: 'The code is wrong or has expired',
      content: null,
    });
    await renderInLocale(<SetPinPage />, 'en-US');
    type('pin-new', '246810');
    type('pin-confirm', '246810');
    type('email-code', '000000');
    await submit();
    await waitFor(() => expect(setSecurityPassword).toHaveBeenCalledTimes(1));
    expect(await screen.findByText('The code is wrong or has expired')).toBeTruthy();
    expect(navigate).not.toHaveBeenCalled();
  });
});
