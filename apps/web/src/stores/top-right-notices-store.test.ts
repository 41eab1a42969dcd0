// @vitest-environment jsdom
import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import {
  PUSH_TOAST_TOP_PX,
  pushToastTopPx,
  setKycNoticeBottomPx,
  usePushToastTopPx,
} from './top-right-notices-store.ts';

/**
 * The message toasts start 100 px from the top, and below the KYC notice (80 px from the
 * top) while it is open, so that the two never overlap.
 */
describe('top-right notices', () => {
  afterEach(() => {
    cleanup();
    setKycNoticeBottomPx(null);
  });

  it('puts the toasts 100 px from the top with no KYC notice, and 16 px below an open one', () => {
    expect(pushToastTopPx(null)).toBe(100);
    expect(pushToastTopPx(254)).toBe(270);
    // A notice ending above 84 px (as it collapses while closing) leaves the toasts at 100 px.
    expect(pushToastTopPx(80)).toBe(100);
  });

  it('moves the toasts as the KYC notice opens, grows and closes', () => {
    const { result } = renderHook(() => usePushToastTopPx());
    expect(result.current).toBe(PUSH_TOAST_TOP_PX);
    act(() => setKycNoticeBottomPx(253.4));
    expect(result.current).toBe(270);
    act(() => setKycNoticeBottomPx(275.2));
    expect(result.current).toBe(292);
    act(() => setKycNoticeBottomPx(null));
    expect(result.current).toBe(100);
  });
});
