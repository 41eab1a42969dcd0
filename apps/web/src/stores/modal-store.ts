import type { ContentOf, Endpoint, EndpointInput } from '@meridian/contracts/endpoint';
import type { Envelope } from '@meridian/contracts/envelope';
import type { CaptchaEvent } from '@meridian/contracts/security';
import { useSyncExternalStore, type ReactNode } from 'react';
import { requestOverlayHost } from './overlay-host-store.ts';

/**
 * State of the global modals: locale, confirm, action (login/register/recover) and
 * security check. It lives outside React so that the HTTP client and the router guard can open,
 * inspect and close modals; the components that draw them subscribe with `useModalState`.
 */
export type ActionFlow = 'login' | 'register' | 'recover';

/** What a finished Register or Recover flow hands to the Login flow it switches to. */
export interface LoginHandoff {
  /** The address the account was created or recovered with: filled in on the sign-in form. */
  email: string;
  /** The success message the sign-in form shows: the account exists, or its password was reset. */
  notice: 'registered' | 'passwordReset';
}

export interface ActionModalRequest {
  flow: ActionFlow;
  /** Where to go after a successful login. */
  returnTo?: string;
  /** Set when Register or Recover ended and the modal switched to Login. */
  handoff?: LoginHandoff;
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

/**
 * A call the security check can send: a descriptor of `@meridian/contracts` with a body,
 * to which the modal adds the factors (`mfaCode`, `emailCaptcha`, `securityPassword`).
 */
export type SecurityCheckEndpoint = Endpoint & {
  method: 'POST' | 'PUT' | 'DELETE';
  body: NonNullable<Endpoint['body']>;
};

/**
 * The captcha event of the check: the descriptor's `sensitiveAction` when it declares one; a
 * call whose service checks the factors itself (`securityEndpoints.changeEmail`, event
 * `EMAIL_CHANGE`) has no `sensitiveAction` on its route, so its caller names the event.
 */
type SecurityCheckEvent<E extends SecurityCheckEndpoint> = E extends { sensitiveAction: CaptchaEvent }
  ? { event?: undefined }
  : { event: CaptchaEvent };

/**
 * A sensitive call to send once the user has entered the codes their configuration requires, typed
 * by its descriptor: `input` is the call's body, query and path parameters as the descriptor types
 * them, with the factors left out (they are optional in every such body; the modal adds them), and
 * `onSuccess` gets the descriptor's content.
 */
export type SecurityCheckRequest<E extends SecurityCheckEndpoint = SecurityCheckEndpoint> = {
  endpoint: E;
  input: EndpointInput<E>;
  /** Extra headers (e.g. `Idempotency-Key`); method, path and api-version come from the descriptor. */
  headers?: Record<string, string>;
  /** No generic success toast: the caller shows its own result. */
  quietSuccess?: boolean;
  onSuccess?(content: ContentOf<E>): void;
  /**
   * The business code of a refused call (the modal stays open unless it is 119), with the whole
   * answer: a form can show a validation failure (120) on its own fields and close the check.
   */
  onFailure?(statusCode: number, response: Envelope<unknown>): void;
} & SecurityCheckEvent<E>;

/** An open security check: its request with the event resolved (from the descriptor or the caller). */
export type OpenSecurityCheck = Omit<SecurityCheckRequest, 'event'> & { event: CaptchaEvent };

export interface ModalState {
  isLocaleOpen: boolean;
  confirm: ConfirmRequest | null;
  action: ActionModalRequest | null;
  securityCheck: OpenSecurityCheck | null;
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

/** Open the security check for a sensitive call; its event is the descriptor's `sensitiveAction` (else the caller's `event`). */
export function openSecurityCheck<E extends SecurityCheckEndpoint>(request: SecurityCheckRequest<E>): void {
  const event: CaptchaEvent = request.endpoint.sensitiveAction ?? (request.event as CaptchaEvent);
  // Stored without its descriptor's type: the slot sends `input` back through the same descriptor.
  setState({ ...state, securityCheck: { ...(request as unknown as OpenSecurityCheck), event } });
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
