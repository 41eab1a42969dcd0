import type { CaptchaEvent } from '@meridian/contracts/security';
import { useSyncExternalStore, type ReactNode } from 'react';
import { requestOverlayHost } from './overlay-host-store.ts';

/**
 * State of the global modals (spec §2): locale, confirm, action (login/register/recover) and
 * security check. It lives outside React so that the HTTP client and the router guard can open,
 * inspect and close modals; the components that draw them subscribe with `useModalState`.
 */
export type ActionFlow = 'login' | 'register' | 'recover';

export interface ActionModalRequest {
  flow: ActionFlow;
  /** Where to go after a successful login. */
  returnTo?: string;
}

export interface ConfirmOptions {
  title: ReactNode;
  content?: ReactNode;
  okText?: ReactNode;
  cancelText?: ReactNode;
  /** Runs when OK is pressed; the OK button shows loading until it settles. A rejection keeps the modal open. */
  onOk?: () => unknown;
}

interface ConfirmRequest extends ConfirmOptions {
  resolve: (isConfirmed: boolean) => void;
}

/** A sensitive call to send once the user has entered the codes their configuration requires. */
export interface SecurityCheckRequest {
  method: 'POST' | 'PUT' | 'DELETE';
  path: string;
  /** The captcha event of the action (spec §7), for the email code the modal sends on show. */
  event?: CaptchaEvent;
  data?: Record<string, unknown>;
  headers?: Record<string, string>;
  /** No generic success toast: the caller shows its own result (issue 14 item 13). */
  quietSuccess?: boolean;
  onSuccess?: (content: unknown) => void;
  onFailure?: (statusCode: number) => void;
}

export interface ModalState {
  isLocaleOpen: boolean;
  confirm: ConfirmRequest | null;
  action: ActionModalRequest | null;
  securityCheck: SecurityCheckRequest | null;
}

const CLOSED: ModalState = { isLocaleOpen: false, confirm: null, action: null, securityCheck: null };

let state: ModalState = CLOSED;
const listeners = new Set<() => void>();

function setState(next: ModalState): void {
  state = next;
  // The modals are drawn by the lazily loaded overlay host; opening one mounts it.
  if (isAnyModalOpen(next)) requestOverlayHost();
  for (const listener of listeners) listener();
}

export function getModalState(): ModalState {
  return state;
}

export function subscribeModals(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useModalState(): ModalState {
  return useSyncExternalStore(subscribeModals, getModalState, getModalState);
}

export function isAnyModalOpen(current: ModalState = state): boolean {
  return current.isLocaleOpen || current.confirm !== null || current.action !== null || current.securityCheck !== null;
}

export function openLocaleModal(): void {
  setState({ ...state, isLocaleOpen: true });
}

export function closeLocaleModal(): void {
  setState({ ...state, isLocaleOpen: false });
}

/** Opens the confirm modal; resolves true after OK (and `onOk`) succeeded, false on cancel or close. */
export function confirm(options: ConfirmOptions): Promise<boolean> {
  state.confirm?.resolve(false);
  return new Promise<boolean>((resolve) => {
    setState({ ...state, confirm: { ...options, resolve } });
  });
}

export function settleConfirm(isConfirmed: boolean): void {
  const pending = state.confirm;
  if (!pending) return;
  setState({ ...state, confirm: null });
  pending.resolve(isConfirmed);
}

export function openActionModal(flow: ActionFlow, options: Omit<ActionModalRequest, 'flow'> = {}): void {
  setState({ ...state, action: { ...options, flow } });
}

export function closeActionModal(): void {
  setState({ ...state, action: null });
}

export function openSecurityCheck(request: SecurityCheckRequest): void {
  setState({ ...state, securityCheck: request });
}

export function closeSecurityCheck(): void {
  setState({ ...state, securityCheck: null });
}

/** Closes every modal; a waiting confirm resolves as cancelled. Used by the router guard. */
export function closeAllModals(): void {
  const pending = state.confirm;
  setState(CLOSED);
  pending?.resolve(false);
}
