import type { Locale } from '@meridian/contracts/locale';
import { validationMessage } from '@meridian/contracts/validation';
import type { RuleObject } from 'antd/es/form';
import type { z } from 'zod';

/**
 * An Ant Design form rule that checks a value with a shared schema of `@meridian/contracts/kyc-rules`
 * (the same rules the server applies at commit), showing its first issue in the user's language.
 * A custom issue's `params` fill its message's placeholders. Empty values pass, so the rule only runs once something was typed; `required` covers empties.
 */
export function zodRule(schema: () => z.ZodType, locale: Locale): RuleObject {
  return {
    validator: async (_rule, value: unknown) => {
      if (value === undefined || value === null || value === '') return;
      const parsed = schema().safeParse(value);
      if (parsed.success) return;
      const issue = parsed.error.issues[0];
      // A custom issue carries its message's placeholders in `params` (e.g. the threshold's `{ minimum }`).
      const params =
        issue?.code === 'custom' ? (issue.params as Record<string, string | number> | undefined) : undefined;
      throw new Error(validationMessage(issue?.message ?? 'validation.required', locale, params));
    },
  };
}
