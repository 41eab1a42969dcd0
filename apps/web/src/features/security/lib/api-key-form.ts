import type { Envelope, ValidationErrorContent } from '@meridian/contracts/envelope';

/**
 * The API-key form's rules, free of React: reading the IP allowlist the user typed, and placing
 * the server's refusal on the form's fields (docs/api.md "API keys").
 */

/** The form's fields that can carry an error: the label, the scopes and the allowlist's text box. */
export type ApiKeyFormField = 'label' | 'scopes' | 'ipText';

/** The allowlist a user typed: entries split on commas, spaces and new lines; empty entries dropped. */
export function parseIpList(text: string | undefined): string[] {
  return (text ?? '').split(/[\s,]+/).filter((entry) => entry.length > 0);
}

/**
 * Where a refused creation shows: a validation failure (120) puts the first message of each field
 * on its input — any `ipAllowlist.N` on the allowlist's text box — and shows no alert when every
 * field is on the form; anything else (or a field the form lacks) is the alert's text.
 */
export function apiKeyFailure(response: Envelope<unknown>): {
  fieldErrors: { name: ApiKeyFormField; errors: [string] }[];
  alert: string | null;
} {
  const content = response.content as ValidationErrorContent | null;
  if (response.statusCode !== 120 || !content?.fields) return { fieldErrors: [], alert: response.message };
  const byField = new Map<string, string>();
  for (const field of content.fields) {
    const name = field.field.startsWith('ipAllowlist') ? 'ipText' : field.field;
    if (!byField.has(name)) byField.set(name, field.message);
  }
  const onForm = (['label', 'scopes', 'ipText'] as const).filter((name) => byField.has(name));
  return {
    fieldErrors: onForm.map((name) => ({ name, errors: [byField.get(name) ?? ''] })),
    alert: onForm.length > 0 ? null : response.message,
  };
}
