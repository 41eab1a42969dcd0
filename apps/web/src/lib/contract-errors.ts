import type { Locale } from '@meridian/contracts/locale';
import { validationMessage } from '@meridian/contracts/validation';
import type { z } from 'zod';

/** A form field's errors, as Ant Design's `form.setFields` takes them. */
export interface FieldErrors {
  name: string;
  errors: string[];
}

/**
 * Checks a request body with its contract's zod schema (the one the server validates with) and
 * returns each failing top-level field with its message in the user's language; empty when it passes.
 * Used by the funds and loans forms before they call the server.
 */
export function contractErrors(schema: z.ZodType, body: unknown, locale: Locale): FieldErrors[] {
  const parsed = schema.safeParse(body);
  if (parsed.success) return [];
  const byField = new Map<string, string[]>();
  for (const issue of parsed.error.issues) {
    const name = String(issue.path[0] ?? '');
    const params = issue.code === 'custom' ? (issue.params as Record<string, string | number> | undefined) : undefined;
    byField.set(name, [...(byField.get(name) ?? []), validationMessage(issue.message, locale, params)]);
  }
  return [...byField].map(([name, errors]) => ({ name, errors }));
}

/** The fields a 120 refusal names (`content.fields`), as `{ field, message }` pairs; empty for any other answer. */
export function refusedFields(statusCode: number, content: unknown): { field: string; message: string }[] {
  if (statusCode !== 120 || typeof content !== 'object' || content === null) return [];
  const fields = (content as { fields?: unknown }).fields;
  if (!Array.isArray(fields)) return [];
  return fields.filter(
    (item): item is { field: string; message: string } =>
      typeof item === 'object' && item !== null && typeof item.field === 'string' && typeof item.message === 'string',
  );
}
