import { createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/**
 * One-time secrets: numeric codes from the CSPRNG, opaque tokens, and their keyed hashes. Codes are
 * stored only as HMAC-SHA-256 under a server key, so a copy of the database alone cannot test the
 * million possible 6-digit values.
 */

/** A `digits`-long decimal code drawn uniformly from the CSPRNG (default 6). */
export function randomNumericCode(digits = 6): string {
  return randomInt(0, 10 ** digits)
    .toString()
    .padStart(digits, '0');
}

/** An opaque random token: `byteCount` bytes as base64url (default 32 bytes → 43 characters). */
export function randomToken(byteCount = 32): string {
  return randomBytes(byteCount).toString('base64url');
}

/** Keyed hash (HMAC-SHA-256, hex) of `value` in `context`, e.g. a code bound to its row. */
export function keyedHash(key: string, context: string, value: string): string {
  return createHmac('sha256', key).update(context).update('\0').update(value).digest('hex');
}

/** Constant-time comparison of two hex digests of equal length. */
export function hashesEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}
