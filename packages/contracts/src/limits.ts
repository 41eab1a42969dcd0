import { z } from 'zod';

/**
 * Length limits of the request fields, as shared building blocks: every string a request carries
 * has a `maxLength` and every list a `maxItems`, so that the generated OpenAPI document states
 * them (the OWASP API Security ruleset, API4 "Unrestricted resource consumption") and the
 * validator refuses a longer value with a field error (HTTP 422, code 120) before any handler
 * runs. The server words an over-long string as `validation.tooLong` and an over-long list as
 * `validation.tooMany`, each naming its maximum (apps/server platform/http/validation.ts), so these
 * schemas carry no message of their own.
 * Product rules and the figures: docs/api.md ("Limits and the linter").
 */

/** Longest identifier-like string a request carries (a pair, a country before it is checked), in characters. */
export const ID_LENGTH_MAX = 64;
/** Longest one-line text (a recovery code or a phone or card number as typed, an image path), in characters. */
export const SHORT_TEXT_LENGTH_MAX = 200;
/** Length of a UUID in its canonical text form (RFC 9562 §4: 32 hex digits and 4 hyphens). */
export const UUID_LENGTH = 36;
/** Longest ISO 8601 instant the API accepts (`2026-01-31T23:59:59.999999+14:00` is 32). */
export const INSTANT_LENGTH_MAX = 40;
/** Longest item list of a request (filters, ids, lines of a batch) unless a field says less. */
export const LIST_LENGTH_MAX = 100;

/** A UUID (any version, as zod's `z.uuid()`), `UUID_LENGTH` characters. */
export function uuidString(options: { error?: string } = {}) {
  return (options.error ? z.uuid({ error: options.error }) : z.uuid()).max(UUID_LENGTH);
}

/** An ISO 8601 instant as text, at most `INSTANT_LENGTH_MAX` characters (the format is the caller's rule). */
export function instantText() {
  return z.string().max(INSTANT_LENGTH_MAX);
}

/** A list of at most `maximum` items (default `LIST_LENGTH_MAX`). */
export function boundedList<T extends z.ZodType>(item: T, maximum: number = LIST_LENGTH_MAX) {
  return z.array(item).max(maximum);
}
