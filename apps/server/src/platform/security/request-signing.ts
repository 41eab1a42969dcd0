import { createHmac, timingSafeEqual } from 'node:crypto';
import { apiCanonicalString } from '@meridian/contracts/api-keys';

/**
 * HMAC-SHA256 request signatures of the developer API (docs/api.md): the signature is the
 * lower-case hex HMAC of `apiCanonicalString(timestamp, method, requestTarget, body)` under the key's
 * secret, as the large exchanges sign (Binance, OKX).
 */

/** The parts of a request its signature covers. */
export interface SignedRequestParts {
  /** Milliseconds since the epoch, as sent in `X-MERIDIAN-TIMESTAMP`. */
  timestamp: string;
  method: string;
  /** Path plus `?query` exactly as sent. */
  requestTarget: string;
  /** Raw body text ('' for none). */
  body: string;
}

/** The hex HMAC-SHA256 signature of a request under `secret`. */
export function signApiRequest(secret: string, parts: SignedRequestParts): string {
  return createHmac('sha256', secret)
    .update(apiCanonicalString(parts.timestamp, parts.method, parts.requestTarget, parts.body))
    .digest('hex');
}

const HEX_SIGNATURE = /^[0-9a-f]{64}$/;

/**
 * Whether `given` is the signature of `parts` under `secret`, compared in constant time (the
 * comparison's duration does not depend on how many characters match). A malformed value is false.
 */
export function isValidApiSignature(secret: string, parts: SignedRequestParts, given: string): boolean {
  if (!HEX_SIGNATURE.test(given)) return false;
  const expected = Buffer.from(signApiRequest(secret, parts), 'hex');
  return timingSafeEqual(expected, Buffer.from(given, 'hex'));
}

/**
 * Whether `timestamp` (decimal milliseconds) is within `windowMs` of `nowMs`, either way.
 * A value that is not 13 digits or fewer of an integer is false.
 */
export function isWithinRecvWindow(timestamp: string, nowMs: number, windowMs: number): boolean {
  if (!/^\d{1,15}$/.test(timestamp)) return false;
  return Math.abs(nowMs - Number(timestamp)) <= windowMs;
}
