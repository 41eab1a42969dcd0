import { electronicFormatIBAN, extractBIC, getCountrySpecifications, isValidBIC, isValidIBAN } from 'ibantools';
import { z } from 'zod';
import { ID_LENGTH_MAX } from './limits.ts';
import { defineEndpoint } from './endpoint.ts';
import { sensitiveFactorsSchema } from './security.ts';

/**
 * Bank accounts for USD wires (`/my/payment/bank`
 * PaymentBank and `bank-add` AddBank, `fund/investor/bankAccount/add|delete|select`). A user at
 * identity level 2 (investor) binds at most `BANK_ACCOUNT_LIMIT` accounts in their own verified
 * name; the funds module redeems to them by wire and names them on wire subscriptions.
 *
 * Sources of the rules: the IBAN of ISO 13616 (country prefix, two check digits — mod 97 — and the
 * country's BBAN format), the BIC of ISO 9362 (4 letters institution, 2 letters ISO 3166 country,
 * 2 characters location, optional 3 characters branch); both checked with `ibantools`, whose
 * country table (the SWIFT IBAN registry flag) also says which countries use the IBAN.
 */

/** The most bank accounts a user may have bound at once. */
export const BANK_ACCOUNT_LIMIT = 5;

/** The only currency of a bound account: wires are in USD. */
export const BANK_ACCOUNT_CURRENCY = 'USD';

/**
 * The country whose accounts are domestic for Meridian (Hong Kong): a domestic wire is expected in
 * 30 minutes to 2 hours, an international one in 1 to 5 days (wire times).
 */
export const DOMESTIC_BANK_COUNTRY = 'HK';

/** Normalise an IBAN, BIC or account number as typed: spaces and hyphens removed, upper case. */
export function compactBankCode(value: string): string {
  return value.replace(/[\s-]+/g, '').toUpperCase();
}

/**
 * Whether accounts in `country` (ISO 3166-1 alpha-2) are identified by an IBAN: the country is in
 * the SWIFT IBAN registry (ISO 13616) as `ibantools` lists it.
 */
export function countryUsesIban(country: string): boolean {
  return getCountrySpecifications()[country]?.IBANRegistry === true;
}

/** Whether `country` is an ISO 3166-1 alpha-2 code `ibantools` knows (the BIC's country letters are checked against the same list). */
export function isBankCountry(country: string): boolean {
  return /^[A-Z]{2}$/.test(country) && getCountrySpecifications()[country] !== undefined;
}

/**
 * Whether an account holder's name is the user's verified name: compared without case and without
 * any whitespace, in either order of the verified first and last name ("Tai Man Chan" and
 * "CHAN TAIMAN" both match first name "Tai Man", last name "Chan").
 */
export function holderMatchesVerifiedName(holder: string, verified: { firstName: string; lastName: string }): boolean {
  const squeeze = (text: string) => text.replace(/\s+/g, '').toLocaleLowerCase('en-US');
  const name = squeeze(holder);
  if (name === '') return false;
  const first = squeeze(verified.firstName);
  const last = squeeze(verified.lastName);
  return name === first + last || name === last + first;
}

/** Account holder as on the bank's records: 2–70 characters (two SWIFT name lines of 35). */
export const accountHolderSchema = z.string().trim().min(2, { error: 'validation.accountHolder' }).max(70);

/** Name of the bank: 2–100 characters. */
export const bankNameSchema = z.string().trim().min(2, { error: 'validation.bankName' }).max(100);

/** ISO 3166-1 alpha-2 country of the bank (upper case). */
export const bankCountrySchema = z
  .string()
  .max(ID_LENGTH_MAX, { abort: true })
  .trim()
  .toUpperCase()
  .refine(isBankCountry, { error: 'validation.country' });

/** SWIFT/BIC (ISO 9362), 8 or 11 characters, checked by format with `ibantools`; stored compact, upper case. */
export const swiftBicSchema = z
  .string()
  .max(40)
  .transform(compactBankCode)
  .refine((bic) => isValidBIC(bic), { error: 'validation.swiftBic' });

/** An optional code field as a form sends it: absent or blank is "not given" (undefined), else compacted by `normalise`. */
function optionalCode(normalise: (value: string) => string) {
  return z
    .string()
    .max(50)
    .optional()
    .transform((value) => (value === undefined || value.trim() === '' ? undefined : normalise(value)));
}

/**
 * IBAN (ISO 13616) checked by its check digits and its country's format with `ibantools`; stored
 * compact, upper case. Optional: required (and only allowed) where the country uses the IBAN.
 */
export const ibanSchema = optionalCode((iban) => electronicFormatIBAN(iban) ?? '').refine(
  (iban) => iban === undefined || isValidIBAN(iban),
  { error: 'validation.iban' },
);

/**
 * Account number where the country has no IBAN: 4–34 letters or digits once spaces and hyphens are
 * removed. Optional: required where the country has no IBAN, ignored where it has one.
 */
export const accountNumberSchema = optionalCode(compactBankCode).refine(
  (number) => number === undefined || /^[A-Z0-9]{4,34}$/.test(number),
  { error: 'validation.accountNumber' },
);

/** Currency of the account: USD only. */
export const bankCurrencySchema = z.literal(BANK_ACCOUNT_CURRENCY, { error: 'validation.bankCurrency' });

/** The fields of a new account as the form sends them (without the security-check factors). */
const bankAccountFieldsSchema = z.object({
  accountHolder: accountHolderSchema,
  bankName: bankNameSchema,
  swiftBic: swiftBicSchema,
  /** Required (and only allowed) where the country uses the IBAN; blank is the same as absent. */
  iban: ibanSchema,
  /** Required where the country has no IBAN; ignored where it has one (the IBAN is the number). */
  accountNumber: accountNumberSchema,
  currency: bankCurrencySchema,
  country: bankCountrySchema,
});

/**
 * The rules between fields (each issue names its field): the BIC's country letters (positions
 * 5–6) are `country`; where the country uses the IBAN it is required and its prefix is `country`;
 * elsewhere an IBAN is refused and the account number is required. They run even when another
 * field was refused (`RUN_ALWAYS`), so a form shows every problem at once: each rule reads only
 * fields that passed their own check (a refused field has its own issue already).
 */
function checkBankAccountFields(
  account: z.output<typeof bankAccountFieldsSchema>,
  context: z.core.$RefinementCtx<z.output<typeof bankAccountFieldsSchema>>,
): void {
  const issue = (path: string, message: string) => context.addIssue({ code: 'custom', path: [path], message });
  const { country, swiftBic, iban, accountNumber } = account as Partial<Record<string, unknown>>;
  if (typeof country !== 'string' || !isBankCountry(country)) return;
  if (typeof swiftBic === 'string' && isValidBIC(swiftBic) && extractBIC(swiftBic).countryCode !== country)
    issue('swiftBic', 'validation.swiftBicCountry');
  if (countryUsesIban(country)) {
    if (iban === undefined) issue('iban', 'validation.ibanRequired');
    else if (typeof iban === 'string' && isValidIBAN(iban) && iban.slice(0, 2) !== country)
      issue('iban', 'validation.ibanCountry');
  } else {
    if (iban !== undefined) issue('iban', 'validation.ibanNotUsed');
    if (accountNumber === undefined) issue('accountNumber', 'validation.accountNumberRequired');
  }
}

/** Run the rules between fields even when a field was refused on its own. */
const RUN_ALWAYS = { when: () => true };

/**
 * `POST fund/investor/bankAccount/add` (api-version 2.0) body, with the BANK_ACCOUNT_ADD security
 * check's factors. Every field's rule and the rules between fields answer code 120 naming the
 * field; the holder's match with the verified name and the limit are the server's.
 */
export const bankAccountAddBodySchema = sensitiveFactorsSchema
  .extend(bankAccountFieldsSchema.shape)
  .superRefine(checkBankAccountFields, RUN_ALWAYS);
/** The new account as a client sends it. */
export type BankAccountAddBody = z.input<typeof bankAccountAddBodySchema>;
/** The new account as the server receives it (codes compact and upper case; `iban` or `accountNumber` present). */
export type ParsedBankAccountAddBody = z.output<typeof bankAccountAddBodySchema>;

/** The form's check of the whole account (no factors): the same rules as the body. */
export const bankAccountFormSchema = bankAccountFieldsSchema.superRefine(checkBankAccountFields, RUN_ALWAYS);

/** A bound bank account as its owner (and the funds module) sees it. */
export const bankAccountSchema = z.object({
  id: z.number().int(),
  accountHolder: z.string(),
  bankName: z.string(),
  /** ISO 9362, compact, upper case. */
  swiftBic: z.string(),
  /** ISO 13616, compact, upper case; null where the country has no IBAN. */
  iban: z.string().nullable(),
  /** The number a wire credits: the IBAN where the country uses it, else the account number given. */
  accountNumber: z.string(),
  currency: z.literal(BANK_ACCOUNT_CURRENCY),
  /** ISO 3166-1 alpha-2. */
  country: z.string(),
  /** The bank is in Hong Kong (`DOMESTIC_BANK_COUNTRY`): the shorter wire-time expectation applies. */
  isDomestic: z.boolean(),
  /** ISO 8601. */
  createdAt: z.string(),
});
export type BankAccount = z.infer<typeof bankAccountSchema>;
export const bankAccountListSchema = z.array(bankAccountSchema);

/** `POST fund/investor/bankAccount/delete/:id` body: the BANK_ACCOUNT_DELETE security check's factors. */
export const bankAccountDeleteBodySchema = sensitiveFactorsSchema;
export const bankAccountIdParamSchema = z.object({ id: z.coerce.number().int().positive() });

/** The bank-account calls, all for a signed-in user at identity level 2 (investor). */
export const paymentsEndpoints = {
  addBankAccount: defineEndpoint({
    method: 'POST',
    path: '/fund/investor/bankAccount/add',
    tag: 'payments',
    summary: 'Bind a USD bank account in the verified name (security check; at most 5)',
    auth: 'user',
    kyc: 'investor',
    sensitiveAction: 'BANK_ACCOUNT_ADD',
    apiVersion: '2.0',
    body: bankAccountAddBodySchema,
    content: bankAccountSchema,
    codes: ['CAPTCHA_FAILED', 'KYC_REQUIRED', 'BANK_ACCOUNT_LIMIT_REACHED'],
  }),
  deleteBankAccount: defineEndpoint({
    method: 'POST',
    path: '/fund/investor/bankAccount/delete/:id',
    tag: 'payments',
    summary: 'Remove a bound bank account (security check; kept in the history)',
    auth: 'user',
    kyc: 'investor',
    sensitiveAction: 'BANK_ACCOUNT_DELETE',
    params: bankAccountIdParamSchema,
    body: bankAccountDeleteBodySchema,
    content: z.null(),
    codes: ['CAPTCHA_FAILED', 'KYC_REQUIRED', 'NOT_FOUND'],
  }),
  listBankAccounts: defineEndpoint({
    method: 'GET',
    path: '/fund/investor/bankAccount/select',
    tag: 'payments',
    summary: 'The bound bank accounts, newest first',
    auth: 'user',
    kyc: 'investor',
    content: bankAccountListSchema,
    codes: ['KYC_REQUIRED'],
  }),
};
