// @vitest-environment jsdom
import type { Envelope } from '@meridian/contracts/envelope';
import { loanEndpoints } from '@meridian/contracts/loans';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Form, Input } from 'antd';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { closeAllModals, closeSecurityCheck, getModalState } from '../stores/modal-store.ts';
import { useModalForm } from './use-modal-form.ts';

/** What Ant Design reads and jsdom lacks (`matchMedia`, `ResizeObserver`); neither needs to react here. */
function polyfillJsdom(): void {
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
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

/** What the security check's slot does with an answer: success closes it first, 119 closes it after. */
function answer(response: Envelope<unknown>): void {
  const open = getModalState().securityCheck;
  if (!open) throw new Error('no security check is open');
  if (response.statusCode === 200) {
    closeSecurityCheck();
    open.onSuccess?.(response.content);
    return;
  }
  open.onFailure?.(response.statusCode, response);
  if (response.statusCode === 119) closeSecurityCheck();
}

interface Values {
  amount: string;
}

/** A modal form the way the money dialogs use the hook: one field, the refusal, a result, close. */
function Probe({
  onClose,
  onSuccess,
  isClosedOnSuccess = false,
}: {
  onClose: () => void;
  onSuccess?: () => void;
  isClosedOnSuccess?: boolean;
}) {
  const repay = useModalForm<Values, typeof loanEndpoints.repay>({
    endpoint: loanEndpoints.repay,
    fieldOf: (field) => (field === 'amount' ? 'amount' : undefined),
    fieldOfCode: { 151: 'amount' },
    isClosedOnSuccess,
    onSuccess,
    onClose,
  });
  if (repay.result) return <button onClick={repay.close}>done {JSON.stringify(repay.result)}</button>;
  return (
    <Form<Values>
      {...repay.formProps}
      onFinish={({ amount }) => repay.submit({ body: { orderId: 'L1', repayType: 'WALLET', amount } })}
    >
      <Form.Item name="amount" label="Amount">
        <Input data-testid="amount" />
      </Form.Item>
      {repay.error && <div role="alert">{repay.error}</div>}
      <span data-testid="pending">{String(repay.isPending)}</span>
      <button type="submit">send</button>
      <button type="button" onClick={repay.close}>
        cancel
      </button>
    </Form>
  );
}

const type = (text: string) => fireEvent.change(screen.getByTestId('amount'), { target: { value: text } });
const send = async () => {
  await act(async () => {
    fireEvent.click(screen.getByText('send'));
  });
  // Ant Design validates before onFinish: wait for the check to open.
  await vi.waitFor(() => expect(getModalState().securityCheck).not.toBeNull());
};

/**
 * `useModalForm` is the one shape of a money dialog: the form's submit opens the security check and
 * is pending until it closes; the server's refusal lands on the form's field (or above the button)
 * and the next edit clears it; success shows the answer in place of the form or closes the modal;
 * closing resets the form.
 */
describe('useModalForm', { timeout: 30_000 }, () => {
  beforeAll(polyfillJsdom);
  afterEach(() => {
    cleanup();
    closeAllModals();
  });

  it('sends the typed values through the check, pending until it closes, then shows the result', async () => {
    const onSuccess = vi.fn();
    render(<Probe onClose={vi.fn()} onSuccess={onSuccess} />);
    act(() => type('12.5'));
    await send();
    expect(getModalState().securityCheck?.input).toEqual({
      body: { orderId: 'L1', repayType: 'WALLET', amount: '12.5' },
    });
    expect(screen.getByTestId('pending').textContent).toBe('true');
    act(() => answer({ statusCode: 200, message: 'OK', content: { amount: '12.5' } }));
    expect(onSuccess).toHaveBeenCalledWith({ amount: '12.5' });
    expect(screen.getByText('done {"amount":"12.5"}')).toBeTruthy();
  });

  it("marks the server's refusal on the field, shows the rest above the button, and an edit clears it", async () => {
    render(<Probe onClose={vi.fn()} />);
    act(() => type('1.1234567'));
    await send();
    act(() =>
      answer({
        statusCode: 120,
        message: 'Invalid input',
        content: { fields: [{ field: 'amount', message: 'At most 6 decimals' }] },
      }),
    );
    expect(getModalState().securityCheck).toBeNull();
    expect(await screen.findByText('At most 6 decimals')).toBeTruthy();
    expect(screen.getByTestId('pending').textContent).toBe('false');

    await send();
    act(() => answer({ statusCode: 150, message: 'Not enough USDT', content: null }));
    expect(screen.getByRole('alert').textContent).toBe('Not enough USDT');
    act(() => type('1'));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('closes on success when asked, and closing resets the form', async () => {
    const onClose = vi.fn();
    render(<Probe onClose={onClose} isClosedOnSuccess />);
    act(() => type('3'));
    await send();
    act(() => answer({ statusCode: 200, message: 'OK', content: {} }));
    expect(onClose).toHaveBeenCalledTimes(1);
    expect((screen.getByTestId('amount') as HTMLInputElement).value).toBe('');

    act(() => type('4'));
    act(() => fireEvent.click(screen.getByText('cancel')));
    expect(onClose).toHaveBeenCalledTimes(2);
    expect((screen.getByTestId('amount') as HTMLInputElement).value).toBe('');
  });
});
