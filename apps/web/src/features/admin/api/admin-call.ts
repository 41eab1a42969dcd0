import type { ContentOf, Endpoint, EndpointInput } from '@meridian/contracts/endpoint';
import {
  type ApiResponse,
  type CallOptions,
  callEndpoint,
  STATUS_LOGIN_EXPIRED,
  unwrap,
} from '../../../lib/api-client.ts';

/**
 * Every back-office call goes through `adminCall`: the customer app's 101 handling (forget the
 * user, open the customer login modal) must not run for an operator, so each call passes
 * `skipLoginRedirect` and a 101 is handed to the back office's own handler instead, which sends the
 * operator to `/admin/login` (with the "session expired" message when a session was there).
 * Each answered call also marks operator activity for the idle timer.
 */

type UnauthenticatedHandler = () => void;
let unauthenticatedHandler: UnauthenticatedHandler | null = null;
let lastActivityMs = Date.now();

/** Set by the back office's root: what to do when the server says there is no operator session. */
export function setAdminUnauthenticatedHandler(handler: UnauthenticatedHandler | null): void {
  unauthenticatedHandler = handler;
}

/** When the last back-office call was answered (epoch ms): the server's idle clock restarts then. */
export function lastAdminActivityMs(): number {
  return lastActivityMs;
}

/** Calls a back-office endpoint; resolves like `callEndpoint`, and routes a 101 to the back office's sign-in. */
export async function adminCall<E extends Endpoint>(
  endpoint: E,
  input: EndpointInput<E>,
  options: CallOptions = {},
): Promise<ApiResponse<ContentOf<E>>> {
  const response = await callEndpoint(endpoint, input, { ...options, skipLoginRedirect: true });
  if (response.statusCode === STATUS_LOGIN_EXPIRED) unauthenticatedHandler?.();
  else lastActivityMs = Date.now();
  return response;
}

/** `adminCall` for query functions: the content, or an `ApiError` (shown by the client for non-GET calls). */
export async function adminFetch<E extends Endpoint>(endpoint: E, input: EndpointInput<E>): Promise<ContentOf<E>> {
  return unwrap(await adminCall(endpoint, input));
}

/** Query keys of the back office: all under `admin`, so signing out forgets every one. */
export const adminKeys = {
  all: ['admin'] as const,
  session: ['admin', 'session'] as const,
  dashboard: ['admin', 'dashboard'] as const,
  users: ['admin', 'users'] as const,
  user: (userId: string) => ['admin', 'users', userId] as const,
  kyc: ['admin', 'kyc'] as const,
  kycReview: (userId: string) => ['admin', 'kyc', 'review', userId] as const,
  deposits: ['admin', 'deposits'] as const,
  withdrawals: ['admin', 'withdrawals'] as const,
  wires: ['admin', 'wires'] as const,
  cards: ['admin', 'cards'] as const,
  proApplications: ['admin', 'pro-applications'] as const,
  trusts: ['admin', 'trusts'] as const,
  screening: ['admin', 'screening'] as const,
  adjustments: ['admin', 'adjustments'] as const,
  broadcasts: ['admin', 'broadcasts'] as const,
  banners: ['admin', 'banners'] as const,
  operators: ['admin', 'operators'] as const,
  audit: ['admin', 'audit'] as const,
  limits: ['admin', 'limits'] as const,
  support: ['admin', 'support'] as const,
  chain: ['admin', 'chain'] as const,
};
