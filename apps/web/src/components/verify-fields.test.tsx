// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Form } from 'antd';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { VerifyFields, type VerifyNeeds } from './verify-fields.tsx';

vi.mock('react-i18next', () => ({
  useTranslation: () => ({ t: (key: string) => key, i18n: { language: 'en-US' } }),
}));

/**
 * The Verify step's focus order: email code, then security password, then two-factor
 * code; the first shown input has focus, and six digits move focus to the next shown input.
 */
function renderFields(needs: VerifyNeeds) {
  return render(
    <Form>
      <VerifyFields
        needs={needs}
        email="demo@meridian.test"
        onSendCode={async () => ({ statusCode: 200, message: '' })}
      />
    </Form>,
  );
}

const input = (testId: string) => screen.getByTestId(testId) as HTMLInputElement;

describe('VerifyFields focus order', () => {
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
  afterEach(cleanup);

  it('all three: email code first, then security password, then two-factor code', async () => {
    renderFields({ email: true, security: true, mfa: true });
    const order = [...document.querySelectorAll('input')].map((element) => element.dataset.testid);
    expect(order).toEqual(['email-code', 'security-password', 'mfa-code']);
    expect(document.activeElement).toBe(input('email-code'));
    await act(async () => fireEvent.change(input('email-code'), { target: { value: '123456' } }));
    expect(document.activeElement).toBe(input('security-password'));
    await act(async () => fireEvent.change(input('security-password'), { target: { value: '654321' } }));
    expect(document.activeElement).toBe(input('mfa-code'));
  });

  it('without the email code: the security password first, then the two-factor code', async () => {
    renderFields({ email: false, security: true, mfa: true });
    expect(document.activeElement).toBe(input('security-password'));
    await act(async () => fireEvent.change(input('security-password'), { target: { value: '65432' } }));
    expect(document.activeElement).toBe(input('security-password'));
    await act(async () => fireEvent.change(input('security-password'), { target: { value: '654321' } }));
    expect(document.activeElement).toBe(input('mfa-code'));
  });

  it('email and two-factor only: six digits of the email code go to the two-factor code', async () => {
    renderFields({ email: true, security: false, mfa: true });
    await act(async () => fireEvent.change(input('email-code'), { target: { value: '123456' } }));
    expect(document.activeElement).toBe(input('mfa-code'));
  });
});
