// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useEffect } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { EmailFlow } from './email-flow.tsx';

const locale = vi.hoisted(() => ({ language: 'en-US' }));
const registerAccount = vi.hoisted(() => vi.fn());
const forgetPassword = vi.hoisted(() => vi.fn());
const resetPassword = vi.hoisted(() => vi.fn());
const sendEmailCode = vi.hoisted(() => vi.fn());

vi.mock('react-i18next', () => ({
  useTranslation: () => ({ t: (key: string) => key, i18n: locale }),
}));
vi.mock('../api/register-account.ts', () => ({ useRegisterAccount: () => ({ mutateAsync: registerAccount }) }));
vi.mock('../api/forget-password.ts', () => ({ useForgetPassword: () => ({ mutateAsync: forgetPassword }) }));
vi.mock('../api/reset-password.ts', () => ({ useResetPassword: () => ({ mutateAsync: resetPassword }) }));
vi.mock('../../../lib/send-email-code.ts', () => ({ sendEmailCode }));
// The proof-of-work widget is replaced by one that has solved its challenge.
vi.mock('./human-check.tsx', () => ({
  HumanCheck: ({ onToken }: { onToken: (token: string) => void }) => {
    useEffect(() => onToken('solved-token'), [onToken]);
    return null;
  },
}));

const ok = <T,>(content: T) => ({ statusCode: 200, message: 'Success', content });
const flowStep = (flow: string) => screen.getByTestId(`${flow}-flow`).dataset.step;
const type = (testId: string, value: string) => fireEvent.change(screen.getByTestId(testId), { target: { value } });
const next = () => act(async () => fireEvent.click(screen.getByTestId('flow-submit')));

/**
 * Register and Recover (docs/identity.md): Mail → Verify → Password; a refused code on the Password
 * step goes back to Verify; success hands the address to Login.
 */
// The first render loads Ant Design: seconds on a machine shared by parallel builds.
describe('EmailFlow', { timeout: 30_000 }, () => {
  beforeAll(() => {
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
  });
  afterEach(() => {
    cleanup();
    for (const mock of [registerAccount, forgetPassword, resetPassword, sendEmailCode]) mock.mockReset();
    locale.language = 'en-US';
  });

  async function toPasswordStep(flow: 'register' | 'recover', onFlowChange = vi.fn()) {
    const stepOne = flow === 'register' ? registerAccount : forgetPassword;
    stepOne.mockResolvedValueOnce(ok({ ticket: 'ticket-1' })).mockResolvedValueOnce(ok({ ticket: 'ticket-1' }));
    render(<EmailFlow flow={flow} onFlowChange={onFlowChange} onDone={() => {}} />);
    expect(flowStep(flow)).toBe('mail');
    type('flow-email', 'new@meridian.test');
    await next();
    await waitFor(() => expect(flowStep(flow)).toBe('verify'));
    expect(stepOne).toHaveBeenLastCalledWith({ email: 'new@meridian.test', token: 'solved-token' });
    type('email-code', '123456');
    await next();
    await waitFor(() => expect(flowStep(flow)).toBe('password'));
    expect(stepOne).toHaveBeenLastCalledWith({
      email: 'new@meridian.test',
      ticket: 'ticket-1',
      emailCaptcha: '123456',
    });
    return onFlowChange;
  }

  it('register: Mail → Verify → Password, then Login with the address filled in', async () => {
    const onFlowChange = await toPasswordStep('register');
    registerAccount.mockResolvedValueOnce(ok({ ticket: 'ticket-1' }));
    type('flow-password', 'correct horse');
    type('flow-confirm', 'correct horse');
    await next();
    await waitFor(() =>
      expect(onFlowChange).toHaveBeenCalledWith('login', { email: 'new@meridian.test', notice: 'registered' }),
    );
    expect(registerAccount).toHaveBeenLastCalledWith({
      email: 'new@meridian.test',
      ticket: 'ticket-1',
      emailCaptcha: '123456',
      password: 'correct horse',
      confirm: 'correct horse',
    });
  });

  it('recover: a refused code on the Password step goes back to Verify with the reason', async () => {
    const onFlowChange = await toPasswordStep('recover');
    resetPassword.mockResolvedValueOnce({ statusCode: 119, message: 'The code has expired', content: null });
    type('flow-password', 'correct horse');
    type('flow-confirm', 'correct horse');
    await next();
    await waitFor(() => expect(flowStep('recover')).toBe('verify'));
    expect(screen.getByTestId('flow-error').textContent).toBe('The code has expired');
    expect(onFlowChange).not.toHaveBeenCalled();
  });

  it('the code is sent for the flow event, naming the account by address and ticket', async () => {
    forgetPassword.mockResolvedValueOnce(ok({ ticket: 'ticket-9' }));
    sendEmailCode.mockResolvedValue(ok({ maskedTo: 'n*w@meridian.test', resendAfterSeconds: 59 }));
    render(<EmailFlow flow="recover" onFlowChange={vi.fn()} onDone={() => {}} />);
    type('flow-email', 'new@meridian.test');
    await next();
    await waitFor(() => expect(flowStep('recover')).toBe('verify'));
    // The Verify step shows where the code goes, masked.
    expect(screen.getByText('verify.sentTo')).toBeTruthy();
    await act(async () => fireEvent.click(screen.getByTestId('send-code')));
    expect(sendEmailCode).toHaveBeenCalledWith('FORGET_PASSWORD', { email: 'new@meridian.test', ticket: 'ticket-9' });
  });

  it('the back arrow returns one step at a time', async () => {
    await toPasswordStep('register');
    act(() => fireEvent.click(screen.getByTestId('flow-back')));
    expect(flowStep('register')).toBe('verify');
    act(() => fireEvent.click(screen.getByTestId('flow-back')));
    expect(flowStep('register')).toBe('mail');
    expect(screen.queryByTestId('flow-back')).toBeNull();
  });

  it('the Password step refuses a short password and a different confirmation, in zh-HK too', async () => {
    locale.language = 'zh-HK';
    await toPasswordStep('register');
    type('flow-password', ' short ');
    type('flow-confirm', 'other');
    await next();
    expect(await screen.findByText('密碼最少需要 8 個字元')).toBeTruthy();
    expect(await screen.findByText('兩次輸入的密碼不一致')).toBeTruthy();
    expect(registerAccount).toHaveBeenCalledTimes(2);
  });
});
