// @vitest-environment jsdom
import { securityEndpoints } from '@meridian/contracts/identity';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { polyfillJsdom, renderInLocale } from '../testing/render-page.tsx';
import { ChangeEmailSection } from './change-email-section.tsx';

const sendNewEmailCode = vi.hoisted(() => vi.fn());
const openSecurityCheck = vi.hoisted(() => vi.fn());

vi.mock('../api/send-new-email-code.ts', () => ({ sendNewEmailCode }));
vi.mock('../../../stores/modal-store.ts', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  openSecurityCheck,
}));

const sendButton = () => screen.getByTestId('change-email-send-code') as HTMLButtonElement;
const type = (testId: string, value: string) => fireEvent.change(screen.getByTestId(testId), { target: { value } });

/**
 * Changing the email (docs/identity.md): the code goes to the new address (send → 59 s countdown →
 * resend), then the security check confirms with the current address's code and the trade factors.
 */
// The first render loads Ant Design: seconds on a machine shared by parallel builds.
describe('ChangeEmailSection', { timeout: 30_000 }, () => {
  beforeAll(polyfillJsdom);
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
    sendNewEmailCode.mockReset();
    openSecurityCheck.mockReset();
  });

  it('sends the code to the new address, counts down 59 seconds, then offers resend', async () => {
    // Only the countdown's interval is faked: the form's validation still runs on real timers.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    sendNewEmailCode.mockResolvedValue({ statusCode: 200, message: 'Success', content: { maskedTo: 'n*w@x.test' } });
    await renderInLocale(<ChangeEmailSection />, 'en-US');
    act(() => type('change-email-input', 'new.owner@meridian.test'));
    await act(async () => fireEvent.click(sendButton()));
    await waitFor(() => expect(sendNewEmailCode).toHaveBeenCalledWith({ email: 'new.owner@meridian.test' }));
    expect(sendButton().textContent).toBe('59 s');
    expect(sendButton().disabled).toBe(true);
    await act(async () => vi.advanceTimersByTime(1_000));
    expect(sendButton().textContent).toBe('58 s');
    await act(async () => vi.advanceTimersByTime(57_000));
    expect(sendButton().textContent).toBe('1 s');
    await act(async () => vi.advanceTimersByTime(1_000));
    expect(sendButton().textContent).toBe('Resend');
    expect(sendButton().disabled).toBe(false);
  });

  it('does not send to an address that is not one, and says so in the user language', async () => {
    await renderInLocale(<ChangeEmailSection />, 'zh-HK');
    act(() => type('change-email-input', 'not-an-address'));
    await act(async () => fireEvent.click(sendButton()));
    expect(await screen.findByText('請輸入有效的電郵地址')).toBeTruthy();
    expect(sendNewEmailCode).not.toHaveBeenCalled();
    expect(sendButton().textContent).toBe('重新發送');
  });

  it('a refused send ends the countdown at once and shows the server reason', async () => {
    sendNewEmailCode.mockResolvedValue({ statusCode: 112, message: 'Please wait 40 seconds', content: null });
    await renderInLocale(<ChangeEmailSection />, 'en-US');
    act(() => type('change-email-input', 'new.owner@meridian.test'));
    await act(async () => fireEvent.click(sendButton()));
    expect(await screen.findByText('Please wait 40 seconds')).toBeTruthy();
    expect(sendButton().textContent).toBe('Resend');
  });

  it('confirms through the security check with the address trimmed and lower-cased, then says where it moved', async () => {
    await renderInLocale(<ChangeEmailSection />, 'en-US');
    act(() => type('change-email-input', 'New.Owner@Meridian.test'));
    act(() => type('change-email-code', '123456'));
    await act(async () => fireEvent.click(screen.getByTestId('change-email-submit')));
    await waitFor(() => expect(openSecurityCheck).toHaveBeenCalledTimes(1));
    const opened = openSecurityCheck.mock.calls[0]?.[0];
    expect(opened.endpoint).toBe(securityEndpoints.changeEmail);
    expect(opened.event).toBe('EMAIL_CHANGE');
    expect(opened.input).toEqual({ body: { email: 'new.owner@meridian.test', newEmailCaptcha: '123456' } });
    await act(async () => opened.onSuccess());
    expect(screen.getByText('Your email is now new.owner@meridian.test')).toBeTruthy();
    expect((screen.getByTestId('change-email-input') as HTMLInputElement).value).toBe('');
  });

  it('needs the six-digit code of the new address before opening the check', async () => {
    await renderInLocale(<ChangeEmailSection />, 'en-US');
    act(() => type('change-email-input', 'new.owner@meridian.test'));
    act(() => type('change-email-code', '12345'));
    await act(async () => fireEvent.click(screen.getByTestId('change-email-submit')));
    expect(await screen.findByText('Enter the 6-digit code')).toBeTruthy();
    expect(openSecurityCheck).not.toHaveBeenCalled();
  });

  it('a refused code in the check asks for new codes, in Traditional Chinese for zh-HK', async () => {
    await renderInLocale(<ChangeEmailSection />, 'zh-HK');
    act(() => type('change-email-input', 'new.owner@meridian.test'));
    act(() => type('change-email-code', '123456'));
    await act(async () => fireEvent.click(screen.getByTestId('change-email-submit')));
    await waitFor(() => expect(openSecurityCheck).toHaveBeenCalledTimes(1));
    await act(async () =>
      openSecurityCheck.mock.calls[0]?.[0].onFailure(119, { statusCode: 119, message: 'Wrong code', content: null }),
    );
    const zh = (await import('../../../locales/zh-HK/identity.json')).default.changeEmail;
    expect(screen.getByText(zh.codeFailed)).toBeTruthy();
  });
});
