import { Secret, TOTP } from 'otpauth';

/**
 * Time-based one-time passwords (RFC 6238): SHA-1, 30-second steps, 6 digits, T0 = 0, accepting
 * one step either side for clock drift. Callers record the accepted step so that it is never
 * accepted twice (RFC 6238 §5.2).
 */
export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** Steps accepted either side of the current one. */
export const TOTP_WINDOW_STEPS = 1;

/** A new 160-bit secret (RFC 4226 §4 recommends 160 bits), base32 without padding. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

function totpFor(secretBase32: string, label = 'user', issuer = 'Meridian'): TOTP {
  return new TOTP({
    issuer,
    label,
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(secretBase32),
  });
}

/** The `otpauth://totp/…` URI for authenticator apps (Key Uri Format). */
export function totpUri(secretBase32: string, label: string, issuer: string): string {
  return totpFor(secretBase32, label, issuer).toString();
}

/**
 * The code for `timestampMs` (milliseconds since the epoch; the app's clock, `clock.now().getTime()`).
 * Tests and the e2e compute codes the same way.
 */
export function totpCode(secretBase32: string, timestampMs: number): string {
  return totpFor(secretBase32).generate({ timestamp: timestampMs });
}

/**
 * The time step (counter) that `code` matches within ±1 step of `timestampMs` (milliseconds since
 * the epoch, from the app's clock), or null. The caller refuses a step at or below the last one it
 * accepted.
 */
export function matchTotpStep(secretBase32: string, code: string, timestampMs: number): number | null {
  const delta = totpFor(secretBase32).validate({ token: code, timestamp: timestampMs, window: TOTP_WINDOW_STEPS });
  if (delta === null) return null;
  return Math.floor(timestampMs / 1000 / TOTP_PERIOD_SECONDS) + delta;
}
