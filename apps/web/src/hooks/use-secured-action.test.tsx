// @vitest-environment jsdom
import type { Envelope } from '@meridian/contracts/envelope';
import { loanEndpoints } from '@meridian/contracts/loans';
import { walletEndpoints } from '@meridian/contracts/wallet';
import { act, cleanup, renderHook } from '@testing-library/react';
import type { FormInstance } from 'antd';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { closeAllModals, closeSecurityCheck, getModalState } from '../stores/modal-store.ts';
import { useSecuredAction } from './use-secured-action.ts';

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

const refusal = (statusCode: number, message: string, content: unknown = null): Envelope<unknown> => ({
  statusCode,
  message,
  content,
});
const validation = (...fields: [string, string][]) =>
  refusal(120, 'Invalid input', { fields: fields.map(([field, message]) => ({ field, message })) });

const repayBody = { orderId: 'L1', repayType: 'WALLET' as const };

/**
 * `useSecuredAction` is the one way a page opens the security check before a money or security
 * action: it opens the check with the descriptor (an idempotency key for an idempotent call), hands
 * success to the caller, stays pending until the check closes whatever closes it, and shows the
 * action's refusals either in the check or back on the form, never the factors' ones on the form.
 */
describe('useSecuredAction', () => {
  afterEach(() => {
    cleanup();
    closeAllModals();
  });

  it('opens the check with the descriptor and input, a new idempotency key per run, and runs onSuccess', () => {
    const onSuccess = vi.fn();
    const { result } = renderHook(() =>
      useSecuredAction({ endpoint: loanEndpoints.repay, onSuccess, quietSuccess: true }),
    );
    expect(result.current.isPending).toBe(false);

    act(() => result.current.run({ body: repayBody }));
    const first = getModalState().securityCheck;
    expect(first).toMatchObject({ endpoint: loanEndpoints.repay, input: { body: repayBody }, quietSuccess: true });
    expect(first?.event).toBe('LOAN_REPAY');
    const firstKey = first?.headers?.['Idempotency-Key'];
    expect(firstKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(result.current.isPending).toBe(true);

    act(() => answer({ statusCode: 200, message: 'OK', content: { id: 'R1' } }));
    expect(onSuccess).toHaveBeenCalledWith({ id: 'R1' });
    expect(result.current.isPending).toBe(false);

    act(() => result.current.run({ body: repayBody }));
    expect(getModalState().securityCheck?.headers?.['Idempotency-Key']).not.toBe(firstKey);
    act(() => result.current.run({ body: repayBody }, { idempotencyKey: 'quote-7' }));
    expect(getModalState().securityCheck?.headers).toEqual({ 'Idempotency-Key': 'quote-7' });
  });

  it('sends no idempotency key for a call that is not idempotent', () => {
    const { result } = renderHook(() => useSecuredAction({ endpoint: walletEndpoints.addAddress }));
    act(() => result.current.run({ body: { label: 'cold', network: 'BTC', address: 'bc1q' } }));
    expect(getModalState().securityCheck?.headers).toBeUndefined();
  });

  it('ends pending when the user cancels the check, with no error', () => {
    const { result } = renderHook(() => useSecuredAction({ endpoint: loanEndpoints.repay, refusalsShownOn: 'form' }));
    act(() => result.current.run({ body: repayBody }));
    expect(result.current.isPending).toBe(true);
    act(() => closeSecurityCheck());
    expect(result.current.isPending).toBe(false);
    expect(result.current.error).toBeNull();
  });

  it('leaves refusals in the check by default: it stays open and the form shows nothing', () => {
    const onRefusal = vi.fn();
    const { result } = renderHook(() => useSecuredAction({ endpoint: loanEndpoints.repay, onRefusal }));
    act(() => result.current.run({ body: repayBody }));
    act(() => answer(refusal(150, 'Not enough USDT')));
    expect(getModalState().securityCheck).not.toBeNull();
    expect(result.current.isPending).toBe(true);
    expect(result.current.error).toBeNull();
    expect(onRefusal).toHaveBeenCalledWith(expect.objectContaining({ statusCode: 150, message: 'Not enough USDT' }));
  });

  it('with refusals on the form: closes the check and returns the fields and the rest as the error', () => {
    const setFields = vi.fn();
    const form = { setFields } as unknown as FormInstance;
    const { result } = renderHook(() =>
      useSecuredAction({
        endpoint: loanEndpoints.repay,
        refusalsShownOn: 'form',
        form,
        fieldOf: (field) => (field === 'orderId' ? undefined : field),
      }),
    );
    act(() => result.current.run({ body: repayBody }));
    act(() => answer(validation(['amount', 'At most 6 decimals'], ['orderId', 'Unknown loan'])));
    expect(getModalState().securityCheck).toBeNull();
    expect(result.current.isPending).toBe(false);
    expect(result.current.fieldErrors).toEqual({ amount: 'At most 6 decimals' });
    expect(result.current.error).toBe('Unknown loan');
    expect(setFields).toHaveBeenCalledWith([{ name: ['amount'], errors: ['At most 6 decimals'] }]);

    act(() => result.current.run({ body: repayBody }));
    expect(result.current.fieldErrors).toEqual({});
    act(() => answer(refusal(150, 'Not enough USDT')));
    expect(result.current.error).toBe('Not enough USDT');
    act(() => result.current.clearErrors());
    expect(result.current.error).toBeNull();
  });

  it('puts a business code on its field, and keeps refusals of the factors and 119 in the check', () => {
    const { result } = renderHook(() =>
      useSecuredAction({ endpoint: loanEndpoints.repay, refusalsShownOn: 'form', fieldOfCode: { 151: 'amount' } }),
    );
    act(() => result.current.run({ body: repayBody }));
    act(() => answer(refusal(151, 'Over the maximum')));
    expect(result.current.fieldErrors).toEqual({ amount: 'Over the maximum' });

    act(() => result.current.run({ body: repayBody }));
    act(() => answer(validation(['mfaCode', '6 digits'])));
    expect(getModalState().securityCheck).not.toBeNull();
    expect(result.current.fieldErrors).toEqual({});
    expect(result.current.error).toBeNull();

    act(() => answer(refusal(119, 'Wrong code')));
    expect(getModalState().securityCheck).toBeNull();
    expect(result.current.isPending).toBe(false);
    expect(result.current.error).toBeNull();
  });
});
