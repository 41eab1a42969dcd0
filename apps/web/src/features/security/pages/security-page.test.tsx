// @vitest-environment jsdom
import type { SecurityConfig } from '@meridian/contracts/identity';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { identityKeys } from '../../../lib/identity-keys.ts';
import { polyfillJsdom, renderInLocale } from '../testing/render-page.tsx';
import { SecurityPage } from './security-page.tsx';

const config = vi.hoisted(() => ({ data: undefined as SecurityConfig | undefined }));
const switchConfig = vi.hoisted(() => vi.fn());
const sendEmailCode = vi.hoisted(() => vi.fn());

vi.mock('../../../lib/get-security-config.ts', () => ({ useSecurityConfig: () => config }));
vi.mock('../../../lib/get-self.ts', () => ({
  useSelf: () => ({ data: { email: 'demonstration@meridian.test', mobile: null } }),
}));
vi.mock('../../../lib/send-email-code.ts', () => ({ sendEmailCode }));
vi.mock('../api/switch-config.ts', () => ({ switchConfig }));
vi.mock('../api/get-sessions.ts', () => ({ useSessions: () => ({ isLoading: false, data: [] }) }));
vi.mock('../api/get-sign-ins.ts', () => ({ useSignIns: () => ({ isLoading: false, data: [] }) }));
// Sections with their own tests.
vi.mock('../components/passkeys-section.tsx', () => ({ PasskeysSection: () => null }));
vi.mock('../components/change-email-section.tsx', () => ({ ChangeEmailSection: () => null }));
vi.mock('../../../components/require-user.tsx', () => ({
  RequireUser: ({ children }: { children: ReactNode }) => children,
}));
vi.mock('../../../components/page-frame.tsx', () => ({
  PageFrame: ({ children }: { children: ReactNode }) => children,
}));

const FRESH: SecurityConfig = {
  security: 0,
  mfa: [],
  login: { email: 1, mfa: 0 },
  trade: { email: 1, mfa: 0, security: 0 },
  mobile: 0,
  withdrawalHoldUntil: null,
};
const GUARDED: SecurityConfig = {
  ...FRESH,
  security: 1,
  mfa: ['google'],
  trade: { email: 1, mfa: 1, security: 1 },
};

const switchOf = (id: string) => screen.getByTestId(id) as HTMLButtonElement;
const bindingText = (key: string) => screen.getByTestId(`binding-${key}`).textContent ?? '';

/**
 * `/my/security` (docs/identity.md): the bindings with the email masked, and the login and trade
 * switches — each turned only when its factor exists, and confirmed by a security check that asks
 * for an email code plus the factors the scope asks for now.
 */
// The first render loads Ant Design: seconds on a machine shared by parallel builds.
describe('SecurityPage', { timeout: 30_000 }, () => {
  beforeAll(polyfillJsdom);
  afterEach(() => {
    cleanup();
    switchConfig.mockReset();
  });

  it('shows the email masked and what is bound, in both languages', async () => {
    config.data = FRESH;
    await renderInLocale(<SecurityPage />, 'en-US');
    expect(bindingText('email')).toContain('de*********on@meridian.test');
    expect(bindingText('email')).not.toContain('demonstration@');
    expect(bindingText('mobile')).toContain('Not bound');
    expect(screen.getByTestId('binding-mobile-action').textContent).toBe('Bind');
    expect(bindingText('pin')).toContain('Not set');
    cleanup();
    config.data = GUARDED;
    await renderInLocale(<SecurityPage />, 'zh-HK');
    expect(bindingText('google')).toContain('已綁定');
    expect(bindingText('pin')).toContain('已設定');
    expect(screen.getByTestId('binding-pin-action').textContent).toBe('更改');
  });

  it('a switch whose factor does not exist cannot be turned', async () => {
    config.data = FRESH;
    await renderInLocale(<SecurityPage />, 'en-US');
    expect(switchOf('switch-login-email').disabled).toBe(false);
    expect(switchOf('switch-login-mfa').disabled).toBe(true);
    expect(switchOf('switch-trade-mfa').disabled).toBe(true);
    expect(switchOf('switch-trade-security').disabled).toBe(true);
    expect(switchOf('switch-trade-email').getAttribute('aria-checked')).toBe('true');
  });

  it('turning a trade switch asks for the email code and the trade factors, then shows the new configuration', async () => {
    config.data = GUARDED;
    const updated: SecurityConfig = { ...GUARDED, trade: { email: 0, mfa: 1, security: 1 } };
    switchConfig.mockResolvedValue({ statusCode: 200, message: 'Success', content: updated });
    const { queryClient } = await renderInLocale(<SecurityPage />, 'en-US');
    act(() => fireEvent.click(switchOf('switch-trade-email')));
    const modal = await screen.findByRole('dialog');
    expect(within(modal).getByText('Security verification')).toBeTruthy();
    fireEvent.change(within(modal).getByTestId('email-code'), { target: { value: '111111' } });
    fireEvent.change(within(modal).getByTestId('security-password'), { target: { value: '222222' } });
    fireEvent.change(within(modal).getByTestId('mfa-code'), { target: { value: '333333' } });
    await act(async () => fireEvent.click(within(modal).getByTestId('switch-confirm')));
    await waitFor(() => expect(switchConfig).toHaveBeenCalledTimes(1));
    expect(switchConfig.mock.calls[0]?.[0]).toEqual({
      scope: 'trade',
      factor: 'email',
      isEnabled: false,
      emailCaptcha: '111111',
      securityPassword: '222222',
      mfaCode: '333333',
    });
    expect(queryClient.getQueryData(identityKeys.config)).toEqual(updated);
  });

  it('turning a login switch never asks for the security password', async () => {
    config.data = GUARDED;
    await renderInLocale(<SecurityPage />, 'en-US');
    act(() => fireEvent.click(switchOf('switch-login-mfa')));
    const modal = await screen.findByRole('dialog');
    expect(within(modal).getByTestId('email-code')).toBeTruthy();
    expect(within(modal).queryByTestId('security-password')).toBeNull();
    // The login scope's mfa switch is off: no authenticator code either.
    expect(within(modal).queryByTestId('mfa-code')).toBeNull();
  });

  it('a refused confirmation keeps the dialog open with the reason', async () => {
    config.data = FRESH;
    switchConfig.mockResolvedValue({ statusCode: 119, message: 'The code is wrong or has expired', content: null });
    await renderInLocale(<SecurityPage />, 'en-US');
    act(() => fireEvent.click(switchOf('switch-login-email')));
    const modal = await screen.findByRole('dialog');
    fireEvent.change(within(modal).getByTestId('email-code'), { target: { value: '000000' } });
    await act(async () => fireEvent.click(within(modal).getByTestId('switch-confirm')));
    expect(await within(modal).findByText('The code is wrong or has expired')).toBeTruthy();
    expect(screen.getByRole('dialog')).toBeTruthy();
  });
});
