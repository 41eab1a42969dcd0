import type { ValidationErrorContent } from '@meridian/contracts/envelope';
import type { FormInstance } from 'antd';
import type { ApiFailure } from '../../../lib/api-client.ts';
import { STATUS_VALIDATION } from '../../../lib/form-errors.ts';

/** An Ant Design name path: `company.directors.0.name` → `['company', 'directors', 0, 'name']`. */
export type FieldPath = (string | number)[];

/** The server's dotted field name (docs/kyc.md; `describeIssues`) as a form name path; list indexes become numbers. */
export function fieldPathOf(dotted: string): FieldPath {
  return dotted.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}

/**
 * Split the field errors of a code-120 answer into those the form shows under a field (the first
 * segment of the path is one of `formRoots`) and the others, whose first message is returned.
 */
export function splitFieldErrors(
  response: ApiFailure,
  formRoots: readonly string[],
): { onFields: { name: FieldPath; errors: string[] }[]; other: string | null } {
  const content = response.content as ValidationErrorContent | null;
  if (response.statusCode !== STATUS_VALIDATION || !content || !Array.isArray(content.fields))
    return { onFields: [], other: response.message };
  const onFields: { name: FieldPath; errors: string[] }[] = [];
  let other: string | null = null;
  for (const field of content.fields) {
    const name = fieldPathOf(field.field);
    if (formRoots.includes(String(name[0]))) {
      const same = onFields.find((each) => each.name.join('.') === name.join('.'));
      if (same) same.errors.push(field.message);
      else onFields.push({ name, errors: [field.message] });
    } else other ??= field.message;
  }
  return { onFields, other };
}

/**
 * Show a refused answer on a form with nested fields and lists (docs/kyc.md "Web"): each field
 * the server names (in the user's language) goes under its field; the rest is returned for an alert.
 */
export function applyNestedServerErrors(
  form: FormInstance,
  response: ApiFailure,
  formRoots: readonly string[],
): { message: string | null; failing: FieldPath[] } {
  const { onFields, other } = splitFieldErrors(response, formRoots);
  form.setFields(onFields);
  return { message: other, failing: onFields.map((each) => each.name) };
}
