import type { Envelope } from '@meridian/contracts/envelope';
import type { Locale } from '@meridian/contracts/locale';
import { validationMessage } from '@meridian/contracts/validation';
import type { z } from 'zod';

/** A form field's errors as Ant Design's `form.setFields` takes them; nested fields by path. */
export interface FieldErrors {
  name: (string | number)[];
  errors: string[];
}

/** Business code of a validation failure (the server names each field by its dotted path). */
const STATUS_VALIDATION = 120;

/**
 * Checks a request body with its contract's zod schema (the one the server validates with) and
 * returns each failing field by path (`shippingAddress.city` → `['shippingAddress', 'city']`) with
 * its message in the user's language; empty when it passes.
 */
export function contractFieldErrors(schema: z.ZodType, body: unknown, locale: Locale): FieldErrors[] {
  const parsed = schema.safeParse(body);
  if (parsed.success) return [];
  const byField = new Map<string, FieldErrors>();
  for (const issue of parsed.error.issues) {
    const name = issue.path.map((part) => (typeof part === 'number' ? part : String(part)));
    const key = name.join('.');
    const entry = byField.get(key) ?? { name, errors: [] };
    entry.errors.push(validationMessage(issue.message, locale));
    byField.set(key, entry);
  }
  return [...byField.values()];
}

/**
 * A refused call's fields for the form: a validation failure (120) names each field by its dotted
 * path; `fieldOfCode` puts another business code on one field (e.g. 212 on the card number).
 * Returns the fields to mark and, when nothing could be placed on a field, the message to show.
 */
export function serverFieldErrors(
  response: Envelope<unknown>,
  fieldOfCode: Partial<Record<number, (string | number)[]>> = {},
): { fields: FieldErrors[]; message: string | null } {
  const content = response.content as { fields?: { field: string; message: string }[] } | null;
  if (response.statusCode === STATUS_VALIDATION && Array.isArray(content?.fields)) {
    return {
      fields: content.fields.map((field) => ({ name: field.field.split('.'), errors: [field.message] })),
      message: null,
    };
  }
  const name = fieldOfCode[response.statusCode];
  if (name) return { fields: [{ name, errors: [response.message] }], message: null };
  return { fields: [], message: response.message };
}
