// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { OpenSecurityCheck } from '../../../stores/modal-store.ts';
import { SecurityCheckSlot } from './security-check-slot.tsx';

const sendEmailCode = vi.hoisted(() => vi.fn());

vi.mock('react-i18next', () => ({
  useTranslation: () => ({ t: (key: string) => key, i18n: { language: 'en-US' } }),
}));
vi.mock('../../../lib/send-email-code.ts', () => ({ sendEmailCode }));
vi.mock('../../../lib/get-self.ts', () => ({ useSelf: () => ({ data: { email: 'demo@meridian.test' } }) }));
vi.mock('../../../lib/get-security-config.ts', () => ({
  useSecurityConfig: () => ({
    data: { security: 0, mfa: [], login: { email: 1, mfa: 0 }, trade: { email: 1, mfa: 0, security: 0 } },
  }),
}));

/** The request of a fixed-fund subscription: its email code is for PURCHASE. */
const REQUEST = { event: 'PURCHASE', endpoint: {}, input: { body: {} } } as unknown as OpenSecurityCheck;

/** A refused send (112, HTTP 429) with the server's remaining wait and, when given, `hasUnusedCode`. */
function refusal(hasUnusedCode?: boolean) {
  return {
    statusCode: 112,
    message: 'Please wait 40 seconds before asking for a new code',
    content: { retryAfterSeconds: 40, ...(hasUnusedCode !== undefined && { hasUnusedCode }) },
  };
}

async function renderSlot() {
  await act(async () => {
    render(<SecurityCheckSlot request={REQUEST} onClose={() => {}} />);
  });
}

/**
 * The security check's code on show (docs/identity.md "Codes"): after a refused send it says the
 * earlier code is still valid only when the server says an unused code is outstanding; otherwise
 * it shows the refusal and never asks for a used-up code.
 */
// The first render loads Ant Design: seconds on a machine shared by parallel builds.
describe('SecurityCheckSlot after a refused code send', { timeout: 30_000 }, () => {
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
    sendEmailCode.mockReset();
  });

  it('says the earlier code is still valid when the server says it is unused', async () => {
    sendEmailCode.mockResolvedValue(refusal(true));
    await renderSlot();
    expect(sendEmailCode).toHaveBeenCalledWith('PURCHASE');
    expect(screen.getByTestId('email-code-note').textContent).toBe('verify.sentEarlier');
  });

  it('does not say "still valid" when no unused code is outstanding: it shows the refusal', async () => {
    sendEmailCode.mockResolvedValue(refusal(false));
    await renderSlot();
    expect(screen.getByTestId('email-code-note').textContent).toBe('verify.sentTo');
    expect(screen.getByText(refusal().message)).toBeTruthy();
  });

  it('does not say "still valid" when the refusal does not tell (an older server)', async () => {
    sendEmailCode.mockResolvedValue(refusal());
    await renderSlot();
    expect(screen.getByTestId('email-code-note').textContent).toBe('verify.sentTo');
  });

  it('a sent code shows where it went', async () => {
    sendEmailCode.mockResolvedValue({ statusCode: 200, message: 'Success', content: { resendAfterSeconds: 59 } });
    await renderSlot();
    expect(screen.getByTestId('email-code-note').textContent).toBe('verify.sentTo');
  });
});
