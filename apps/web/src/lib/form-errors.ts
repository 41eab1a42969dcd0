import type { ValidationErrorContent } from '@meridian/contracts/envelope';
import type { FormInstance } from 'antd';
import type { ApiFailure } from './api-client.ts';

/** Business code of a validation failure (the server names each field). */
export const STATUS_VALIDATION = 120;
/** Business code of a failed human check or code. */
export const STATUS_CAPTCHA_FAILED = 119;

function isValidationContent(content: unknown): content is ValidationErrorContent {
  return typeof content === 'object' && content !== null && Array.isArray((content as { fields?: unknown }).fields);
}

/**
 * Show a failed answer on its form: a validation failure marks each named field that the form has,
 * and anything else (or a field the form lacks) becomes the returned text for an inline alert.
 */
export function applyServerErrors(
  form: FormInstance,
  response: ApiFailure,
  formFields: readonly string[],
): string | null {
  if (response.statusCode === STATUS_VALIDATION && isValidationContent(response.content)) {
    const known = response.content.fields.filter((field) => formFields.includes(field.field));
    form.setFields(known.map((field) => ({ name: field.field, errors: [field.message] })));
    const unknown = response.content.fields.find((field) => !formFields.includes(field.field));
    return unknown ? unknown.message : null;
  }
  return response.message;
}
