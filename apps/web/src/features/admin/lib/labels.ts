import type { TFunction } from 'i18next';

/**
 * Labels of the back office's codes in the operator's language (en-US or zh-HK): enum values of the
 * contracts (`enums.<field>.<value>` of the admin locale files), audit actions
 * (`auditActions.<action>`: an operator route's endpoint name, or the sign-in's `operator.*`) and
 * countries (ISO 3166 alpha-2, by the browser's `Intl.DisplayNames`). A code with no label shows as
 * itself; `labels.test.ts` fails when a contract's enum value or an audit action has none.
 */

/** Fields whose values are ISO 3166 alpha-2 country codes (KYC data, tax residences). */
const COUNTRY_FIELDS = new Set([
  'nationality',
  'residence',
  'country',
  'countryOfIncorporation',
  'sanctionsCountryLinks',
  'residences',
  'taxResidence',
]);

/** Fields whose values are codes read the same in every language (tickers, form names, file types). */
export const FIELDS_SHOWN_AS_CODE = new Set(['asset', 'coin', 'coinCode', 'mimeType', 'form']);

/** The field a dotted path names: its last segment that is not an array index (`sourcesOfFunds.0` → `sourcesOfFunds`). */
export function fieldOfPath(path: string): string {
  const segments = path.split('.').filter((segment) => !/^\d+$/.test(segment));
  return segments.at(-1) ?? path;
}

/** A country's name in `language` (`HK` → "Hong Kong" / "香港"); the code itself when it is not one. */
export function countryName(code: string, language: string): string {
  if (!/^[A-Z]{2}$/.test(code)) return code;
  try {
    return new Intl.DisplayNames([language], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}

/** The label of a submitted-data line's field (`individual.netWorthUsdBand` → "Net worth"), numbered inside a list. */
export function fieldLabel(t: TFunction, path: string): string {
  const field = fieldOfPath(path);
  const label = t(`fields.${field}`, { defaultValue: '' }) || t(`fields.${path}`, { defaultValue: path });
  const index = path.match(/\.(\d+)(?:\.|$)/)?.[1];
  return index === undefined ? label : `${label} ${Number(index) + 1}`;
}

/**
 * The value of `field` for an operator: a country's name, an enum value's label, yes/no for a
 * boolean, else the text as given.
 */
export function valueLabel(t: TFunction, language: string, field: string, value: string): string {
  if (COUNTRY_FIELDS.has(field)) return countryName(value, language);
  if (FIELDS_SHOWN_AS_CODE.has(field)) return value;
  if (value === 'true') return t('common.yes');
  if (value === 'false') return t('common.no');
  return t(`enums.${field}.${value}`, { defaultValue: value });
}

/** An audit action's label (`operator.totpEnrolled` → "Authenticator enrolled"); the code when it has none. */
export function auditActionLabel(t: TFunction, action: string): string {
  // i18next reads dots as nesting: the sign-in actions' keys are nested under `operator`.
  return t(`auditActions.${action}`, { defaultValue: action });
}
