/**
 * HTTP conventions shared by the web client and the server (docs/architecture.md "Request path").
 */

/** Base path of every API call. */
export const API_BASE_PATH = '/api';
/** Client-side timeout of one call. */
export const HTTP_TIMEOUT_MS = 6000;
/** Header carrying the user's locale on every request. */
export const HEADER_USER_LANG = 'User-Lang';
/** Header that suppresses the client's automatic messages when set to "1". */
export const HEADER_SILENCE = 'Silence';
/** Header some calls send with the value "2.0". */
export const HEADER_API_VERSION = 'api-version';
/**
 * Custom header every state-changing request must carry (with a JSON content type), so that a
 * cross-site form post can never reach a mutating route (docs/architecture.md "Request path").
 */
export const HEADER_CSRF = 'X-Meridian-Client';
export const CSRF_HEADER_VALUE = 'web';
/** Header carrying a money-moving request's idempotency key. */
export const HEADER_IDEMPOTENCY_KEY = 'Idempotency-Key';
