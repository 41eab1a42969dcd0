import type { Locale } from '@meridian/contracts/locale';
import { bankAccountFormSchema, BANK_ACCOUNT_CURRENCY, holderMatchesVerifiedName } from '@meridian/contracts/payments';
import { isValidationMessageKey, validationMessage } from '@meridian/contracts/validation';
import type { Rule } from 'antd/es/form';
import type { z } from 'zod';

/** The fields of the AddBank form (the contract's names, so server errors land on them). */
export const BANK_FORM_FIELDS = ['country', 'accountHolder', 'bankName', 'swiftBic', 'iban', 'accountNumber'] as const;
export type BankFormField = (typeof BANK_FORM_FIELDS)[number];

/** What the form holds: strings as typed (the contract normalises them). */
export type BankFormValues = Partial<Record<BankFormField, string>>;

/** An issue of the contract in `locale`: a missing field is "required", a product rule its own message. */
function messageOf(issue: z.core.$ZodIssue, locale: Locale): string {
  if (issue.code === 'invalid_type') return validationMessage('validation.required', locale);
  if (issue.code === 'too_big')
    return validationMessage('validation.tooLong', locale, { maximum: Number(issue.maximum) });
  return isValidationMessageKey(issue.message) ? validationMessage(issue.message, locale) : issue.message;
}

/**
 * The form rule of one field: the whole form is checked with the contract's `bankAccountFormSchema`
 * (the same rules the server applies, the rules between fields included) and this field's first
 * issue is shown, in the user's language, once something was typed (an empty field is `required`'s). The holder is also compared with the verified name
 * (`holderMatchesVerifiedName`, the server's rule) when it is known.
 */
export function bankFieldRule(
  field: BankFormField,
  locale: Locale,
  verifiedName: { firstName: string; lastName: string } | null,
): Rule {
  return (form) => ({
    validator: async () => {
      const values = form.getFieldsValue(true) as BankFormValues;
      // An empty field is the `required` rule's to report (once); this rule checks what was typed.
      if ((values[field] ?? '').trim() === '') return;
      const parsed = bankAccountFormSchema.safeParse({ ...values, currency: BANK_ACCOUNT_CURRENCY });
      const issue = parsed.success ? undefined : parsed.error.issues.find((item) => item.path[0] === field);
      if (issue) throw new Error(messageOf(issue, locale));
      if (
        field === 'accountHolder' &&
        verifiedName &&
        !holderMatchesVerifiedName(values.accountHolder ?? '', verifiedName)
      )
        throw new Error(
          validationMessage('validation.accountHolderName', locale, {
            name: `${verifiedName.firstName} ${verifiedName.lastName}`.trim(),
          }),
        );
    },
  });
}
