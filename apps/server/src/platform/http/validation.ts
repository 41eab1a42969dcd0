import type { FieldError as WireFieldError } from '@meridian/contracts/envelope';
import type { Locale } from '@meridian/contracts/locale';
import { findUnsafeText, MULTILINE_FIELDS, UNSAFE_TEXT_MESSAGE_KEY } from '@meridian/contracts/text';
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
 * Issues for every string (or key) of a request part that breaks the contracts' text rule
 * (`contracts/text.ts`: no NUL, no other control character, no lone surrogate). Headers are
 * checked only for the names the route's schema declares: the others are not read by the route.
 */
function unsafeTextIssues(data: unknown, part: RequestPart, schema: z.ZodType): z.core.$ZodIssue[] {
  let checked = data;
  if (part === 'headers' && data !== null && typeof data === 'object') {
    const shape = schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
    checked = Object.fromEntries(shape.map((name) => [name, (data as Record<string, unknown>)[name]]));
  }
  return findUnsafeText(checked, {
    isMultiline: (path) => MULTILINE_FIELDS.has(`${part}.${path.map(String).join('.')}`),
  }).map((path) => ({
    code: 'custom',
    path,
    message: UNSAFE_TEXT_MESSAGE_KEY,
    input: undefined,
  })) as z.core.$ZodIssue[];
}

/**
 * Fastify validator compiler for zod schemas (docs/architecture.md "Request path": every body and query is validated
 * by its contract). First the one text rule of `contracts/text.ts` on every string of the part
 * (a NUL reached PostgreSQL and answered 500), then the contract: parses and
 * transforms the input; failures become `RequestValidationError` (422, code 120, field named).
 * Validation runs before every preHandler (sessions, one-time codes), so a refused request
 * consumes nothing.
 */
export const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema, httpPart }) =>
  (data) => {
    const unsafe = unsafeTextIssues(data, (httpPart ?? 'body') as RequestPart, schema);
    if (unsafe.length > 0) return { error: new RequestValidationError(unsafe) };
    let result: z.ZodSafeParseResult<unknown>;
    try {
      result = schema.safeParse(data, { reportInput: true });
    } catch {
      // A contract must never throw (a refinement that throws on input it did not expect is a bug
      // of the contract); the client still gets the validation error on the part, never a 500.
      return { error: new RequestValidationError([malformedPartIssue()]) };
    }
    return result.success ? { value: result.data } : { error: new RequestValidationError(result.error.issues) };
  };

/** The issue of a request part whose contract threw: the part itself is named (`body`). */
function malformedPartIssue(): z.core.$ZodIssue {
  return { code: 'custom', path: [], message: 'validation.invalid', input: undefined } as z.core.$ZodIssue;
}

const zhHkLocale = z.locales.zhTW().localeError;

/** An issue for a field the client left out: worded as "This field is required". */
function isMissing(issue: z.core.$ZodIssue): boolean {
  return issue.code === 'invalid_type' && 'input' in issue && issue.input === undefined;
}

/**
 * A string longer than its maximum says so, whatever fallback message the schema
 * carries (`z.string({ error: 'validation.required' }).max(…)` made every issue "required"); a
 * product message of its own (e.g. the label's "4 to 50 characters") is kept.
 */
function isTooLongText(issue: z.core.$ZodIssue): boolean {
  return (
    issue.code === 'too_big' &&
    issue.origin === 'string' &&
    (!isValidationMessageKey(issue.message) || issue.message === 'validation.required')
  );
}

/** A list longer than its maximum (`maxItems`) says so, unless the schema carries a product message. */
function isTooLongList(issue: z.core.$ZodIssue): boolean {
  return issue.code === 'too_big' && issue.origin === 'array' && !isValidationMessageKey(issue.message);
}

/**
 * The one issue that explains a failed union: a value that is one of `item | item[]` (a repeated
 * query parameter) and fails only as the list (too many items) is worded as the list's issue, not
 * zod's "Invalid input". Undefined when no single branch got past the type check.
 */
function unionCause(issue: z.core.$ZodIssue): z.core.$ZodIssue | undefined {
  if (issue.code !== 'invalid_union') return undefined;
  const typed = issue.errors.filter(
    (branch) => branch.length > 0 && !branch.every((inner) => inner.code === 'invalid_type'),
  );
  return typed.length === 1 && typed[0]!.length === 1 ? typed[0]![0] : undefined;
}

function issueMessage(issue: z.core.$ZodIssue, locale: Locale): string {
  if (isMissing(issue)) return validationMessage('validation.required', locale);
  const cause = unionCause(issue);
  if (cause) return issueMessage(cause, locale);
  if (issue.code === 'too_big' && isTooLongText(issue))
    return validationMessage('validation.tooLong', locale, { maximum: Number(issue.maximum) });
  if (issue.code === 'too_big' && isTooLongList(issue))
    return validationMessage('validation.tooMany', locale, { maximum: Number(issue.maximum) });
  // A custom issue carries its message's placeholders in `params` (e.g. the amount's `{ decimals }`).
  if (isValidationMessageKey(issue.message))
    return validationMessage(
      issue.message,
      locale,
      issue.code === 'custom' ? (issue.params as Record<string, string | number> | undefined) : undefined,
    );
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
