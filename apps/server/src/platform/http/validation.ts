import type { FieldError as WireFieldError } from '@meridian/contracts/envelope';
import type { Locale } from '@meridian/contracts/locale';
import { isValidationMessageKey, validationMessage } from '@meridian/contracts/validation';
import type { FastifySchemaCompiler } from 'fastify';
import { z } from 'zod';

/** Which part of the request a schema validated. */
export type RequestPart = 'body' | 'querystring' | 'params' | 'headers';

/**
 * Raised by the validator compiler when a request part fails its zod contract. It keeps the raw
 * issues (with their inputs, never sent to the client) so the error handler can word them in the
 * caller's language.
 */
export class RequestValidationError extends Error {
  readonly statusCode = 422;
  constructor(readonly issues: z.core.$ZodIssue[]) {
    super('request validation failed');
    this.name = 'RequestValidationError';
  }
}

/**
 * Fastify validator compiler for zod schemas (ARCHITECTURE §5: every body and query is validated
 * by its contract). Parses and transforms the input; failures become `RequestValidationError`.
 */
export const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema }) =>
  (data) => {
    const result = schema.safeParse(data, { reportInput: true });
    return result.success ? { value: result.data } : { error: new RequestValidationError(result.error.issues) };
  };

const zhHkLocale = z.locales.zhTW().localeError;

/** An issue for a field the client left out: worded as "This field is required". */
function isMissing(issue: z.core.$ZodIssue): boolean {
  return issue.code === 'invalid_type' && 'input' in issue && issue.input === undefined;
}

function issueMessage(issue: z.core.$ZodIssue, locale: Locale): string {
  if (isMissing(issue)) return validationMessage('validation.required', locale);
  if (isValidationMessageKey(issue.message)) return validationMessage(issue.message, locale);
  if (locale === 'en-US') return issue.message;
  const localized = zhHkLocale(issue as unknown as z.core.$ZodRawIssue);
  return typeof localized === 'string' ? localized : (localized?.message ?? issue.message);
}

/**
 * Word zod issues for the client: one entry per issue, naming the field by its dotted path
 * (`address.label`), or the unknown keys, or the request part when the whole value is wrong.
 */
export function describeIssues(issues: readonly z.core.$ZodIssue[], part: string, locale: Locale): WireFieldError[] {
  return issues.map((issue) => {
    const field =
      issue.path.length > 0
        ? issue.path.map(String).join('.')
        : issue.code === 'unrecognized_keys'
          ? issue.keys.join(', ')
          : part;
    return { field, message: issueMessage(issue, locale) };
  });
}
