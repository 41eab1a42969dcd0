import type { BusinessCodeName } from '@meridian/contracts/codes';

/**
 * A typed domain error: services throw these; the one error handler maps `code`
 * to the business-code catalogue and the user's language. `params` fill the message placeholders
 * (`{amount}`, `{unit}` …); `content` is returned to the client as the envelope content.
 */
export class DomainError extends Error {
  constructor(
    readonly code: BusinessCodeName,
    readonly params: Record<string, string | number> = {},
    readonly content: unknown = null,
  ) {
    super(code);
    this.name = 'DomainError';
  }
}

/**
 * A failure tied to one input field, answered as a validation error (code 120) that names the
 * field, e.g. `new FieldError('amount', 'validation.amountPrecision', { decimals: 6 })`. `messageKey`
 * is a key of the validation catalogue in `@meridian/contracts/validation`.
 */
export class FieldError extends Error {
  constructor(
    readonly field: string,
    readonly messageKey: string,
    readonly params: Record<string, string | number> = {},
  ) {
    super(`${field}: ${messageKey}`);
    this.name = 'FieldError';
  }
}
