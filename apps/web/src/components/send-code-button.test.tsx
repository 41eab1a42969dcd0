// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CODE_COUNTDOWN_SECONDS, SendCodeButton } from './send-code-button.tsx';

vi.mock('react-i18next', () => ({
  useTranslation: () => ({
    t: (key: string, params?: { seconds?: number }) =>
      params?.seconds !== undefined ? `${key}:${params.seconds}` : key,
  }),
}));

/** The send-code button: send → 59-second countdown → resend; a failed send ends the countdown. */
describe('SendCodeButton', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it('counts down 59 seconds after a successful send, then offers resend', async () => {
    const onSend = vi.fn(async () => 200);
    render(<SendCodeButton onSend={onSend} />);
    expect(screen.getByTestId('send-code').textContent).toContain('sendCode.send');
    await act(async () => {
      fireEvent.click(screen.getByTestId('send-code'));
    });
    expect(onSend).toHaveBeenCalledTimes(1);
    expect(screen.getByTestId('send-code').textContent).toContain(`sendCode.counting:${CODE_COUNTDOWN_SECONDS}`);
    expect((screen.getByTestId('send-code') as HTMLButtonElement).disabled).toBe(true);
    await act(async () => {
      vi.advanceTimersByTime(1000);
    });
    expect(screen.getByTestId('send-code').textContent).toContain(`sendCode.counting:${CODE_COUNTDOWN_SECONDS - 1}`);
    await act(async () => {
      vi.advanceTimersByTime(CODE_COUNTDOWN_SECONDS * 1000);
    });
    expect(screen.getByTestId('send-code').textContent).toContain('sendCode.resend');
    expect((screen.getByTestId('send-code') as HTMLButtonElement).disabled).toBe(false);
  });

  it('ends the countdown and reports the status code when the send fails', async () => {
    const onFailure = vi.fn();
    render(<SendCodeButton onSend={async () => 112} onFailure={onFailure} />);
    await act(async () => {
      fireEvent.click(screen.getByTestId('send-code'));
    });
    expect(onFailure).toHaveBeenCalledWith(112);
    expect(screen.getByTestId('send-code').textContent).toContain('sendCode.resend');
  });
});
