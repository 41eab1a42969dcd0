// @vitest-environment jsdom
import type { SecurityConfig } from '@meridian/contracts/identity';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { polyfillJsdom, renderInLocale } from '../testing/render-page.tsx';
import { GoogleAuthenticatorPage } from './google-authenticator-page.tsx';

const config = vi.hoisted(() => ({ data: undefined as SecurityConfig | undefined }));
const bindMfa = vi.hoisted(() => vi.fn());
const unbindMfa = vi.hoisted(() => vi.fn());

vi.mock('../../../lib/get-security-config.ts', () => ({ useSecurityConfig: () => config }));
vi.mock('../../../lib/get-self.ts', () => ({ useSelf: () => ({ data: { email: 'demo@meridian.test' } }) }));
vi.mock('../../../lib/send-email-code.ts', () => ({ sendEmailCode: vi.fn() }));
vi.mock('../api/get-mfa-key.ts', () => ({
  useMfaKey: () => ({ data: { secret: 'JBSWY3DPEHPK3PXP', qrDataUrl: 'data:image/png;base64,AAAA' } }),
}));
vi.mock('../api/bind-mfa.ts', () => ({ bindMfa }));
vi.mock('../api/unbind-mfa.ts', () => ({ unbindMfa }));
vi.mock('../../../components/require-user.tsx', () => ({
  RequireUser: ({ children }: { children: ReactNode }) => children,
}));
vi.mock('../../../components/page-frame.tsx', () => ({
  PageFrame: ({ children }: { children: ReactNode }) => children,
}));

const UNBOUND: SecurityConfig = {
  security: 0,
  mfa: [],
  login: { email: 1, mfa: 0 },
  trade: { email: 1, mfa: 0, security: 0 },
  mobile: 0,
  withdrawalHoldUntil: null,
};
const BOUND: SecurityConfig = { ...UNBOUND, security: 1, mfa: ['google'], trade: { email: 1, mfa: 1, security: 1 } };
const RECOVERY_CODES = Array.from({ length: 10 }, (_, index) => `code-${index}`);

function resetAll() {
  cleanup();
  bindMfa.mockReset();
  unbindMfa.mockReset();
}

const type = (testId: string, value: string) => fireEvent.change(screen.getByTestId(testId), { target: { value } });

/** Binding the authenticator: scan the key, enter its code and the email code, keep the recovery codes; or unbind. */
// The first render loads Ant Design: seconds on a machine shared by parallel builds.
describe('GoogleAuthenticatorPage: bind', { timeout: 30_000 }, () => {
  beforeAll(polyfillJsdom);
  afterEach(resetAll);

  it('bind: shows the key, sends the new code with the email code, then shows the recovery codes once', async () => {
    config.data = UNBOUND;
    bindMfa.mockResolvedValue({ statusCode: 200, message: 'Success', content: { recoveryCodes: RECOVERY_CODES } });
    const { queryClient } = await renderInLocale(<GoogleAuthenticatorPage />, 'en-US');
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    expect(screen.getByTestId('mfa-secret').textContent).toContain('JBSWY3DPEHPK3PXP');
    expect(screen.getByAltText('QR code of the authenticator key')).toBeTruthy();
    // The new authenticator's code is its own field; the security check adds only the email code here.
    expect(screen.getAllByTestId('mfa-code')).toHaveLength(1);
    expect(screen.queryByTestId('security-password')).toBeNull();
    type('mfa-code', '314159');
    type('email-code', '271828');
    await act(async () => fireEvent.click(screen.getByTestId('mfa-bind')));
    await waitFor(() => expect(screen.getByTestId('recovery-codes')).toBeTruthy());
    expect(bindMfa.mock.calls[0]?.[0]).toMatchObject({ mfaCode: '314159', emailCaptcha: '271828' });
    expect(screen.getByTestId('recovery-codes').textContent).toBe(RECOVERY_CODES.join('\n'));
    expect(screen.getByText('Google Authenticator is bound')).toBeTruthy();
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['identity'] });
  });

  it('bind: the security password is asked for when trading asks for it', async () => {
    config.data = { ...UNBOUND, security: 1, trade: { email: 1, mfa: 0, security: 1 } };
    await renderInLocale(<GoogleAuthenticatorPage />, 'en-US');
    expect(screen.getByTestId('security-password')).toBeTruthy();
  });

  it('bind: a code that is not six digits is refused before any call, in Traditional Chinese for zh-HK', async () => {
    config.data = UNBOUND;
    await renderInLocale(<GoogleAuthenticatorPage />, 'zh-HK');
    expect(screen.getByTestId('mfa-bind').textContent).toContain('綁定驗證器');
    type('mfa-code', '31415');
    type('email-code', '271828');
    await act(async () => fireEvent.click(screen.getByTestId('mfa-bind')));
    expect(await screen.findByText('請輸入 6 位數字驗證碼')).toBeTruthy();
    expect(bindMfa).not.toHaveBeenCalled();
  });

  it('bind: a refused code keeps the form and shows the reason; no recovery codes', async () => {
    config.data = UNBOUND;
    bindMfa.mockResolvedValue({ statusCode: 119, message: 'The authenticator code is wrong', content: null });
    await renderInLocale(<GoogleAuthenticatorPage />, 'en-US');
    type('mfa-code', '000000');
    type('email-code', '271828');
    await act(async () => fireEvent.click(screen.getByTestId('mfa-bind')));
    expect(await screen.findByText('The authenticator code is wrong')).toBeTruthy();
    expect(screen.queryByTestId('recovery-codes')).toBeNull();
  });
});

/** Unbinding: the current factors, or a recovery code for a lost phone. */
describe('GoogleAuthenticatorPage: unbind', { timeout: 30_000 }, () => {
  beforeAll(polyfillJsdom);
  afterEach(resetAll);

  it('unbind: asks for the email code, the current authenticator code and the security password', async () => {
    config.data = BOUND;
    unbindMfa.mockResolvedValue({ statusCode: 200, message: 'Success', content: BOUND });
    await renderInLocale(<GoogleAuthenticatorPage />, 'en-US');
    expect(screen.getByText('Google Authenticator is bound to your account.')).toBeTruthy();
    type('email-code', '111111');
    type('security-password', '222222');
    type('mfa-code', '333333');
    await act(async () => fireEvent.click(screen.getByTestId('mfa-unbind')));
    await waitFor(() => expect(unbindMfa).toHaveBeenCalledTimes(1));
    expect(unbindMfa.mock.calls[0]?.[0]).toMatchObject({
      emailCaptcha: '111111',
      securityPassword: '222222',
      mfaCode: '333333',
    });
  });
  it('unbind with a lost phone: a recovery code replaces the authenticator code and is sent as recoveryCode', async () => {
    config.data = BOUND;
    unbindMfa.mockResolvedValue({ statusCode: 200, message: 'Success', content: BOUND });
    await renderInLocale(<GoogleAuthenticatorPage />, 'zh-HK');
    expect(screen.getByTestId('toggle-recovery').textContent).toBe('遺失手機？改用恢復碼');
    act(() => fireEvent.click(screen.getByTestId('toggle-recovery')));
    expect(screen.queryByTestId('mfa-code')).toBeNull();
    type('email-code', '111111');
    type('security-password', '222222');
    type('recovery-code', 'abcde-fghij');
    await act(async () => fireEvent.click(screen.getByTestId('mfa-unbind')));
    await waitFor(() => expect(unbindMfa).toHaveBeenCalledTimes(1));
    const body = unbindMfa.mock.calls[0]?.[0];
    expect(body).toMatchObject({ emailCaptcha: '111111', securityPassword: '222222', recoveryCode: 'abcde-fghij' });
    expect(body.mfaCode).toBeUndefined();
  });

  it('unbind: going back to the authenticator code sends mfaCode only', async () => {
    config.data = BOUND;
    unbindMfa.mockResolvedValue({ statusCode: 200, message: 'Success', content: BOUND });
    await renderInLocale(<GoogleAuthenticatorPage />, 'en-US');
    act(() => fireEvent.click(screen.getByTestId('toggle-recovery')));
    type('recovery-code', 'ABCDE-FGHIJ');
    act(() => fireEvent.click(screen.getByTestId('toggle-recovery')));
    expect(screen.getByTestId('toggle-recovery').textContent).toBe('Lost your phone? Use a recovery code');
    type('email-code', '111111');
    type('security-password', '222222');
    type('mfa-code', '333333');
    await act(async () => fireEvent.click(screen.getByTestId('mfa-unbind')));
    await waitFor(() => expect(unbindMfa).toHaveBeenCalledTimes(1));
    const body = unbindMfa.mock.calls[0]?.[0];
    expect(body.mfaCode).toBe('333333');
    expect(body.recoveryCode).toBeUndefined();
  });
});
