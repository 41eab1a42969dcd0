import { KYC_REQUIRED_CODE, NOTIFICATION_CODES } from '@meridian/contracts/client-codes';
import {
  type ContentOf,
  type Endpoint,
  type EndpointInput,
  endpointPath,
  type HttpMethod,
} from '@meridian/contracts/endpoint';
import type { Envelope } from '@meridian/contracts/envelope';
import {
  API_BASE_PATH,
  CSRF_HEADER_VALUE,
  HEADER_API_VERSION,
  HEADER_CSRF,
  HEADER_SILENCE,
  HEADER_USER_LANG,
  HTTP_TIMEOUT_MS,
} from '@meridian/contracts/http';
import { showFeedback } from './feedback.ts';
import { translate } from './i18n.ts';
import { getStoredLocale } from './locale.ts';

/**
 * The one HTTP client of the web app. Every call resolves — it never rejects — to the
 * server's envelope `{ statusCode, content, message }`; a network failure, a timeout or an answer
 * that is not an envelope becomes `{ statusCode: 500, message: 'Network Exception', content: null }`.
 *
 * Messages, decided here once so that callers never repeat them:
 * - 101 (login expired): an error notification, then the login modal with `returnTo`, unless the
 *   call passes `skipLoginRedirect`. The redirect also happens on silent calls (only the
 *   notification is silenced): an expired session must lead back to login whichever call saw it.
 * - Silent calls (`silent: true` or a `Silence: 1` header) and GET calls show nothing else.
 * - 103, 105–108: an error notification with the server's message as its description.
 * - Any other non-200: an error toast with the message.
 * - 200 on a non-GET call: a success toast with the message, unless the call passes `quietSuccess`
 *   (its page shows its own result).
 */

export const STATUS_OK = 200;
export const STATUS_LOGIN_EXPIRED = 101;
export const NETWORK_EXCEPTION_STATUS = 500;
export const NETWORK_EXCEPTION_MESSAGE = 'Network Exception';
export const API_VERSION_2 = '2.0';

export type { HttpMethod };
export type QueryScalar = string | number | boolean | null | undefined;
export type QueryParams = Record<string, QueryScalar | readonly QueryScalar[]>;

export interface RequestOptions {
  /** Query parameters: arrays repeat the key (`coin=BTC&coin=ETH`); null and undefined are skipped. */
  params?: QueryParams;
  /** JSON body of a non-GET call; `{}` is sent when absent, as the server expects a JSON body. */
  body?: unknown;
  headers?: Record<string, string>;
  /** Sends `Silence: 1` and shows no message for this call. */
  silent?: boolean;
  /**
   * No success toast for a 200 of this call, because its page shows its own result (a swap's result
   * card and its message-centre toast). Errors are shown as usual and, unlike
   * `silent`, no `Silence` header is sent.
   */
  quietSuccess?: boolean;
  /** Sends `api-version: 2.0`. */
  apiVersion?: typeof API_VERSION_2;
  /** On 101, do not open the login modal (e.g. loading the current user on a public page). */
  skipLoginRedirect?: boolean;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Path prefix; `/api` unless a service lives elsewhere (e.g. `/api/notice`). */
  basePath?: string;
}

export interface ApiSuccess<T> extends Envelope<T> {
  statusCode: typeof STATUS_OK;
}
export type ApiFailure = Envelope<unknown>;
export type ApiResponse<T> = ApiSuccess<T> | ApiFailure;

export function isSuccess<T>(response: ApiResponse<T>): response is ApiSuccess<T> {
  return response.statusCode === STATUS_OK;
}

/** Thrown by `unwrap`, for callers (TanStack Query functions) that want an exception on failure. */
export class ApiError extends Error {
  constructor(readonly response: ApiFailure) {
    super(response.message || `API error ${response.statusCode}`);
    this.name = 'ApiError';
  }

  get statusCode(): number {
    return this.response.statusCode;
  }
}

/** The content of a successful answer, or an `ApiError` carrying the failed envelope. */
export function unwrap<T>(response: ApiResponse<T>): T {
  if (isSuccess(response)) return response.content;
  throw new ApiError(response);
}

/** Called on 101 unless the call opted out; the app opens the login modal. */
export interface LoginExpiredEvent {
  /** Where the user was, to come back after logging in. */
  returnTo: string;
  message: string;
}
let loginExpiredHandler: ((event: LoginExpiredEvent) => void) | null = null;

export function setLoginExpiredHandler(handler: ((event: LoginExpiredEvent) => void) | null): void {
  loginExpiredHandler = handler;
}

export function buildUrl(path: string, params: QueryParams = {}, basePath: string = API_BASE_PATH): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    const values: readonly QueryScalar[] = Array.isArray(value) ? value : [value as QueryScalar];
    for (const item of values) {
      if (item === null || item === undefined) continue;
      search.append(key, String(item));
    }
  }
  const query = search.toString();
  const base = basePath.replace(/\/+$/, '');
  const relative = path.replace(/^\/+/, '');
  return `${base}/${relative}${query ? `?${query}` : ''}`;
}

function networkException(): ApiFailure {
  return { statusCode: NETWORK_EXCEPTION_STATUS, content: null, message: NETWORK_EXCEPTION_MESSAGE };
}

/** The envelope in a response body, with a missing content or message normalised; null if none. */
function readEnvelope(value: unknown): Envelope<unknown> | null {
  if (typeof value !== 'object' || value === null) return null;
  const candidate = value as Record<string, unknown>;
  if (typeof candidate.statusCode !== 'number') return null;
  return {
    statusCode: candidate.statusCode,
    content: candidate.content ?? null,
    message: typeof candidate.message === 'string' ? candidate.message : '',
  };
}

function currentLocation(): string {
  if (typeof window === 'undefined') return '/';
  const { pathname, search, hash } = window.location;
  return `${pathname}${search}${hash}`;
}

/** The `content` of a 143 KYC_REQUIRED refusal (docs/kyc.md): the missing step's page. */
function isKycRequiredContent(content: unknown): content is { route: string } {
  return (
    typeof content === 'object' &&
    content !== null &&
    typeof (content as { route?: unknown }).route === 'string' &&
    (content as { route: string }).route.startsWith('/')
  );
}

function showMessages(response: ApiFailure, method: HttpMethod, options: RequestOptions, isSilent: boolean): void {
  const { statusCode } = response;
  const isNetworkException = statusCode === NETWORK_EXCEPTION_STATUS && response.message === NETWORK_EXCEPTION_MESSAGE;
  const text = isNetworkException ? translate('common:feedback.networkException') : response.message;

  if (statusCode === STATUS_LOGIN_EXPIRED) {
    if (options.skipLoginRedirect) return;
    if (!isSilent) {
      showFeedback({
        kind: 'notification',
        title: translate('common:feedback.loginExpiredTitle'),
        description: text || translate('common:feedback.loginExpired'),
      });
    }
    loginExpiredHandler?.({ returnTo: currentLocation(), message: text });
    return;
  }
  if (isSilent || method === 'GET') return;
  if (statusCode === STATUS_OK) {
    if (options.quietSuccess) return;
    showFeedback({ kind: 'success', text: text || translate('common:feedback.success') });
  } else if (statusCode === KYC_REQUIRED_CODE && isKycRequiredContent(response.content)) {
    // The call needs a verification step: a prompt with a button to that step, back here afterwards.
    const to = `${response.content.route}?returnTo=${encodeURIComponent(currentLocation())}`;
    showFeedback({
      kind: 'notification',
      title: translate('common:feedback.kycRequiredTitle'),
      description: text,
      action: { label: translate('common:feedback.kycRequiredAction'), to },
    });
  } else if (NOTIFICATION_CODES.includes(statusCode)) {
    showFeedback({ kind: 'notification', title: translate('common:feedback.attentionTitle'), description: text });
  } else {
    showFeedback({ kind: 'error', text: text || translate('common:feedback.failed') });
  }
}

export async function request<T>(
  method: HttpMethod,
  path: string,
  options: RequestOptions = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = {
    Accept: 'application/json',
    [HEADER_USER_LANG]: getStoredLocale(),
  };
  if (options.silent) headers[HEADER_SILENCE] = '1';
  if (options.apiVersion) headers[HEADER_API_VERSION] = options.apiVersion;
  if (method !== 'GET') {
    headers['Content-Type'] = 'application/json';
    headers[HEADER_CSRF] = CSRF_HEADER_VALUE;
  }
  Object.assign(headers, options.headers);
  const isSilent = Object.entries(headers).some(
    ([name, value]) => name.toLowerCase() === HEADER_SILENCE.toLowerCase() && value === '1',
  );

  const controller = new AbortController();
  const timeoutMs = options.timeoutMs ?? HTTP_TIMEOUT_MS;
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  let isAbortedByCaller = false;
  const onCallerAbort = () => {
    isAbortedByCaller = true;
    controller.abort();
  };
  if (options.signal?.aborted) onCallerAbort();
  options.signal?.addEventListener('abort', onCallerAbort, { once: true });

  let response: ApiResponse<T>;
  try {
    const httpResponse = await fetch(buildUrl(path, options.params, options.basePath), {
      method,
      headers,
      body: method === 'GET' ? undefined : JSON.stringify(options.body ?? {}),
      credentials: 'same-origin',
      signal: controller.signal,
    });
    const payload: unknown = await httpResponse.json();
    // The envelope's content is typed by the caller's contract; the server validates what it sends.
    response = (readEnvelope(payload) as ApiResponse<T> | null) ?? networkException();
  } catch {
    response = networkException();
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onCallerAbort);
  }

  // A call its own caller cancelled (a page left, a query superseded) shows nothing.
  if (!isAbortedByCaller) showMessages(response, method, options, isSilent);
  return response;
}

export const apiClient = {
  get: <T>(path: string, options?: RequestOptions) => request<T>('GET', path, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('POST', path, { ...options, body }),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('PUT', path, { ...options, body }),
  patch: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('PATCH', path, { ...options, body }),
  delete: <T>(path: string, options?: RequestOptions) => request<T>('DELETE', path, options),
};

/** Options of one call through its descriptor: what the descriptor does not already decide. */
export type CallOptions = Omit<RequestOptions, 'params' | 'body' | 'apiVersion' | 'basePath'>;

/**
 * Call the endpoint a descriptor of `@meridian/contracts` declares: its method,
 * path (`:param`s filled from `input.params`), base path and api-version come from the descriptor,
 * the body and query from `input`, typed by the descriptor's schemas; the content of the answer is
 * typed by its `content` schema (the server validates what it sends). Resolves like `request`.
 */
export function callEndpoint<E extends Endpoint>(
  endpoint: E,
  input: EndpointInput<E>,
  options: CallOptions = {},
): Promise<ApiResponse<ContentOf<E>>> {
  const { body, query, params } = input as {
    body?: unknown;
    query?: QueryParams;
    params?: Record<string, string | number>;
  };
  return request<ContentOf<E>>(endpoint.method, endpointPath(endpoint, params), {
    ...options,
    body,
    params: query,
    ...(endpoint.apiVersion && { apiVersion: endpoint.apiVersion }),
    ...(endpoint.basePath && { basePath: endpoint.basePath }),
  });
}
