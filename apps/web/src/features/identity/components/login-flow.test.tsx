// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useEffect } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LoginHandoff } from '../../../stores/modal-store.ts';
import { LoginFlow } from './login-flow.tsx';

const logIn = vi.hoisted(() => vi.fn());
const setUserId = vi.hoisted(() => vi.fn());
const navigate = vi.hoisted(() => vi.fn());
const sendEmailCode = vi.hoisted(() => vi.fn());
const resetHumanCheck = vi.hoisted(() => vi.fn());

vi.mock('react-i18next', () => ({
  useTranslation: () => ({
    t: (key: string, params?: { email?: string }) => (params?.email ? `${key}:${params.email}` : key),
    i18n: { language: 'en-US' },
  }),
}));
vi.mock('react-router', () => ({ useNavigate: () => navigate }));
vi.mock('../api/log-in.ts', () => ({ useLogIn: () => ({ mutateAsync: logIn }) }));
vi.mock('../api/passkey-log-in.ts', () => ({ passkeyLogIn: vi.fn() }));
vi.mock('../../../lib/passkey.ts', () => ({ isPasskeySupported: () => false, getPasskeyAssertion: vi.fn() }));
vi.mock('../../../lib/session.ts', () => ({ setUserId }));
vi.mock('../../../lib/get-self.ts', () => ({ getSelf: async () => ({ content: { email: 'demo@meridian.test' } }) }));
vi.mock('../../../lib/get-security-config.ts', () => ({ getSecurityConfig: async () => ({ content: {} }) }));
vi.mock('../../../lib/send-email-code.ts', () => ({ sendEmailCode }));
// The proof-of-work widget is replaced by one that has solved its challenge.
vi.mock('./human-check.tsx', () => ({
  HumanCheck: ({
    onToken,
    handleRef,
  }: {
    onToken: (token: string) => void;
    handleRef: { current: { reset(): void } | null };
  }) => {
    useEffect(() => {
      handleRef.current = { reset: resetHumanCheck };
      onToken('solved-token');
    }, [onToken, handleRef]);
    return null;
  },
}));

const ok = <T,>(content: T) => ({ statusCode: 200, message: 'Success', content });
/** The answer of a password that is right when the account asks for more factors. */
const needsFactors = (factors: { email: boolean; mfa: boolean; passkey?: boolean; authenticator?: boolean }) =>
  ok({ accountId: null, ticket: 'ticket-7', ...factors });
const step = () => screen.getByTestId('login-flow').dataset.step;
const type = (testId: string, value: string) => fireEvent.change(screen.getByTestId(testId), { target: { value } });
const submit = () => act(async () => fireEvent.click(screen.getByTestId('login-submit')));

function renderLogin(props: { returnTo?: string; handoff?: LoginHandoff } = {}) {
  const onDone = vi.fn();
  const onFlowChange = vi.fn();
  render(
    <QueryClientProvider client={new QueryClient()}>
      <LoginFlow flow="login" onDone={onDone} onFlowChange={onFlowChange} {...props} />
    </QueryClientProvider>,
  );
  return { onDone, onFlowChange };
}

function resetAll() {
  cleanup();
  for (const mock of [logIn, setUserId, navigate, sendEmailCode, resetHumanCheck]) mock.mockReset();
}

/** Ant Design's responsive helpers read `matchMedia`, which jsdom lacks. */
function polyfillMatchMedia() {
  window.matchMedia ??= ((query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  })) as typeof window.matchMedia;
}

async function passwordStep() {
  type('login-email', 'demo@meridian.test');
  type('login-password', 'correct horse');
  await submit();
  await waitFor(() => expect(logIn).toHaveBeenCalledTimes(1));
  expect(logIn).toHaveBeenLastCalledWith({
    email: 'demo@meridian.test',
    password: 'correct horse',
    token: 'solved-token',
  });
}

/**
 * Login (docs/identity.md): the Form step (email, password, human check), then the Verify step
 * with exactly the factors the answer asks for; a 200 with an account id signs in.
 */
// The first render loads Ant Design: seconds on a machine shared by parallel builds.
describe('LoginFlow', { timeout: 30_000 }, () => {
  beforeAll(polyfillMatchMedia);
  afterEach(resetAll);

  it('a password alone signs in: stores the account, closes, goes back where the user was', async () => {
    logIn.mockResolvedValueOnce(ok({ accountId: 'acc-1' }));
    const { onDone } = renderLogin({ returnTo: '/account/wallet' });
    await passwordStep();
    await waitFor(() => expect(onDone).toHaveBeenCalledTimes(1));
    expect(setUserId).toHaveBeenCalledWith('acc-1');
    expect(navigate).toHaveBeenCalledWith('/account/wallet');
    // Every human-check token is used once.
    expect(resetHumanCheck).toHaveBeenCalledTimes(1);
  });

  it('email code and authenticator asked for: Verify shows both and sends them with the ticket', async () => {
    logIn.mockResolvedValueOnce(needsFactors({ email: true, mfa: true })).mockResolvedValueOnce(ok({ accountId: 'a' }));
    const { onDone } = renderLogin();
    await passwordStep();
    await waitFor(() => expect(step()).toBe('verify'));
    expect(screen.getByTestId('email-code')).toBeTruthy();
    expect(screen.getByTestId('mfa-code')).toBeTruthy();
    expect(screen.queryByTestId('security-password')).toBeNull();
    type('email-code', '111111');
    type('mfa-code', '222222');
    await submit();
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(logIn).toHaveBeenLastCalledWith({
      email: 'demo@meridian.test',
      password: 'correct horse',
      ticket: 'ticket-7',
      emailCaptcha: '111111',
      mfaCode: '222222',
    });
  });

  it('the email code goes to the address being signed in, for LOGIN_CHECK, with the ticket', async () => {
    logIn.mockResolvedValueOnce(needsFactors({ email: true, mfa: false }));
    sendEmailCode.mockResolvedValue(ok({ resendAfterSeconds: 59 }));
    renderLogin();
    await passwordStep();
    await waitFor(() => expect(step()).toBe('verify'));
    expect(screen.queryByTestId('mfa-code')).toBeNull();
    expect(screen.queryByTestId('toggle-recovery')).toBeNull();
    await act(async () => fireEvent.click(screen.getByTestId('send-code')));
    expect(sendEmailCode).toHaveBeenCalledWith('LOGIN_CHECK', { email: 'demo@meridian.test', ticket: 'ticket-7' });
  });
});

/** The Verify step's other ways: a recovery code, a passkey, going back. */
// The first render loads Ant Design: seconds on a machine shared by parallel builds.
describe('LoginFlow: other second factors', { timeout: 30_000 }, () => {
  beforeAll(polyfillMatchMedia);
  afterEach(resetAll);

  it('a recovery code can replace the authenticator code, and is sent as recoveryCode', async () => {
    logIn
      .mockResolvedValueOnce(needsFactors({ email: false, mfa: true }))
      .mockResolvedValueOnce(ok({ accountId: 'a' }));
    renderLogin();
    await passwordStep();
    await waitFor(() => expect(step()).toBe('verify'));
    act(() => fireEvent.click(screen.getByTestId('toggle-recovery')));
    expect(screen.queryByTestId('mfa-code')).toBeNull();
    type('recovery-code', 'ABCDE-FGHIJ');
    await submit();
    await waitFor(() => expect(logIn).toHaveBeenCalledTimes(2));
    const body = logIn.mock.calls[1]?.[0];
    expect(body).toMatchObject({ ticket: 'ticket-7', recoveryCode: 'ABCDE-FGHIJ' });
    expect(body).not.toHaveProperty('mfaCode');
  });

  it('an account whose only second factor is a passkey gets no code input and no sign-in button', async () => {
    logIn.mockResolvedValueOnce(needsFactors({ email: true, mfa: true, passkey: true, authenticator: false }));
    renderLogin();
    await passwordStep();
    await waitFor(() => expect(step()).toBe('verify'));
    expect(screen.getByTestId('email-code')).toBeTruthy();
    expect(screen.queryByTestId('mfa-code')).toBeNull();
    expect(screen.queryByTestId('toggle-recovery')).toBeNull();
    expect(screen.queryByTestId('login-submit')).toBeNull();
    expect(screen.getByTestId('login-verify-passkey')).toBeTruthy();
  });

  it('a refused password stays on the form with the reason and a fresh human check', async () => {
    logIn.mockResolvedValueOnce({ statusCode: 102, message: 'Wrong email or password', content: null });
    renderLogin();
    await passwordStep();
    expect(await screen.findByTestId('flow-error')).toBeTruthy();
    expect(screen.getByTestId('flow-error').textContent).toBe('Wrong email or password');
    expect(step()).toBe('form');
    expect(resetHumanCheck).toHaveBeenCalledTimes(1);
    expect(setUserId).not.toHaveBeenCalled();
  });

  it('the back arrow on Verify returns to the form, keeping the address', async () => {
    logIn.mockResolvedValueOnce(needsFactors({ email: true, mfa: false }));
    renderLogin();
    await passwordStep();
    await waitFor(() => expect(step()).toBe('verify'));
    act(() => fireEvent.click(screen.getByTestId('flow-back')));
    expect(step()).toBe('form');
    expect((screen.getByTestId('login-email') as HTMLInputElement).value).toBe('demo@meridian.test');
  });

  it('after Register, says the account exists and fills in the address', () => {
    renderLogin({ handoff: { email: 'new@meridian.test', notice: 'registered' } });
    expect(screen.getByTestId('login-notice').textContent).toContain('login.registered:new@meridian.test');
    expect((screen.getByTestId('login-email') as HTMLInputElement).value).toBe('new@meridian.test');
  });
});
