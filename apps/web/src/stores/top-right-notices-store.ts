import { useSyncExternalStore } from 'react';

/**
 * The notices in the top-right corner: the persistent identity-verification (KYC) notice
 * 80 px from the top, and the toasts of messages arriving in real time 100 px from the top. They are
 * two Ant Design notification stacks with their own offsets, so while the KYC notice is open it
 * reports where it ends, and the toasts start below it instead of on top of it.
 */
export const KYC_NOTICE_TOP_PX = 80;
export const PUSH_TOAST_TOP_PX = 100;
/** Space between the KYC notice and the first toast: Ant Design's gap between notices of one stack. */
export const NOTICE_GAP_PX = 16;

/** Bottom edge of the open KYC notice in viewport pixels (the notices are fixed), or null when none is open. */
let kycNoticeBottomPx: number | null = null;
const listeners = new Set<() => void>();

export function setKycNoticeBottomPx(bottomPx: number | null): void {
  const next = bottomPx === null ? null : Math.ceil(bottomPx);
  if (next === kycNoticeBottomPx) return;
  kycNoticeBottomPx = next;
  for (const listener of listeners) listener();
}

/** The toasts' top: 100 px, or lower while an open KYC notice reaches further down. */
export function pushToastTopPx(kycBottomPx: number | null): number {
  if (kycBottomPx === null) return PUSH_TOAST_TOP_PX;
  return Math.max(PUSH_TOAST_TOP_PX, kycBottomPx + NOTICE_GAP_PX);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function usePushToastTopPx(): number {
  return useSyncExternalStore(
    subscribe,
    () => pushToastTopPx(kycNoticeBottomPx),
    () => PUSH_TOAST_TOP_PX,
  );
}
