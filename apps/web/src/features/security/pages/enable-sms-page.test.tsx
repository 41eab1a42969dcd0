// @vitest-environment jsdom
import type { SecurityConfig } from '@meridian/contracts/identity';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { polyfillJsdom, renderInLocale } from '../testing/render-page.tsx';
import { EnableSmsPage } from './enable-sms-page.tsx';

const config = vi.hoisted(() => ({ data: undefined as SecurityConfig | undefined }));
const sendMobileCode = vi.hoisted(() => vi.fn());
const bindMobile = vi.hoisted(() => vi.fn());
const navigate = vi.hoisted(() => vi.fn());

vi.mock('../../../lib/get-security-config.ts', () => ({ useSecurityConfig: () => config }));
vi.mock('../../../lib/get-self.ts', () => ({ useSelf: () => ({ data: { email: 'demo@meridian.test' } }) }));
vi.mock('../../../lib/get-countries.ts', () => ({
  useCountries: () => ({
    isLoading: false,
    data: [{ code: 'HK', nameEn: 'Hong Kong', nameZh: '香港', dialCodes: ['852'] }],
  }),
}));
vi.mock('../../../lib/send-email-code.ts', () => ({ sendEmailCode: vi.fn() }));
vi.mock('../api/send-mobile-code.ts', () => ({ sendMobileCode }));
vi.mock('../api/bind-mobile.ts', () => ({ bindMobile }));
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

const TRADE_EMAIL_ONLY: SecurityConfig = {
  security: 0,
  mfa: [],
  login: { email: 1, mfa: 0 },
  trade: { email: 1, mfa: 0, security: 0 },
  mobile: 0,
  withdrawalHoldUntil: null,
};

const smsButton = () => screen.getByTestId('sms-send-code') as HTMLButtonElement;
const mobileInput = () => screen.getByLabelText('Mobile number');
const type = (element: HTMLElement, value: string) => fireEvent.change(element, { target: { value } });

/**
 * `/my/security/enable-sms`: the SMS code goes to a valid number (send → 59 s → resend), and
 * binding sends it with the email code and the trade factors.
 */
// The first render loads Ant Design: seconds on a machine shared by parallel builds.
describe('EnableSmsPage', { timeout: 30_000 }, () => {
  beforeAll(polyfillJsdom);
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
    sendMobileCode.mockReset();
    bindMobile.mockReset();
    navigate.mockReset();
  });

  it('refuses a number that is not one before sending anything, in the user language', async () => {
    config.data = TRADE_EMAIL_ONLY;
    await renderInLocale(<EnableSmsPage />, 'zh-HK');
    type(screen.getByLabelText('手機號碼'), '12');
    await act(async () => fireEvent.click(smsButton()));
    expect(await screen.findByText('請輸入有效的手機號碼')).toBeTruthy();
    expect(sendMobileCode).not.toHaveBeenCalled();
  });

  it('sends the SMS code to the number in the chosen country and counts down 59 seconds', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    config.data = TRADE_EMAIL_ONLY;
    sendMobileCode.mockResolvedValue({ statusCode: 200, message: 'Success', content: null });
    await renderInLocale(<EnableSmsPage />, 'en-US');
    type(mobileInput(), '9123 4567');
    await act(async () => fireEvent.click(smsButton()));
    await waitFor(() => expect(sendMobileCode).toHaveBeenCalledWith({ mobileCountry: 'HK', mobile: '9123 4567' }));
    expect(smsButton().textContent).toBe('59 s');
    await act(async () => vi.advanceTimersByTime(59_000));
    expect(smsButton().textContent).toBe('Resend');
  });

  it('binds with the SMS code, the email code and the trade factors, then returns to the security page', async () => {
    config.data = { ...TRADE_EMAIL_ONLY, security: 1, trade: { email: 1, mfa: 0, security: 1 } };
    bindMobile.mockResolvedValue({ statusCode: 200, message: 'Success', content: { ...TRADE_EMAIL_ONLY, mobile: 1 } });
    await renderInLocale(<EnableSmsPage />, 'en-US');
    type(mobileInput(), '9123 4567');
    type(screen.getByLabelText('SMS verification code'), '123456');
    type(screen.getByTestId('email-code'), '654321');
    type(screen.getByTestId('security-password'), '246810');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Bind mobile' })));
    await waitFor(() => expect(bindMobile).toHaveBeenCalledTimes(1));
    expect(bindMobile.mock.calls[0]?.[0]).toMatchObject({
      mobileCountry: 'HK',
      mobile: '9123 4567',
      smsCaptcha: '123456',
      emailCaptcha: '654321',
      securityPassword: '246810',
    });
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/my/security'));
  });

  it('a refused SMS send says why and offers resend at once', async () => {
    config.data = TRADE_EMAIL_ONLY;
    sendMobileCode.mockResolvedValue({ statusCode: 112, message: 'Please wait 40 seconds', content: null });
    await renderInLocale(<EnableSmsPage />, 'en-US');
    type(mobileInput(), '9123 4567');
    await act(async () => fireEvent.click(smsButton()));
    expect(await screen.findByText('Please wait 40 seconds')).toBeTruthy();
    expect(smsButton().textContent).toBe('Resend');
  });
});
