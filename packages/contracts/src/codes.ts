import { interpolate, type Locale } from './locale.ts';
import { COMMON_CODES } from './codes/common.ts';
import { FUNDS_CODES } from './codes/funds.ts';
import { LOANS_CARDS_CODES } from './codes/loans-cards.ts';
import { SETTINGS_CORPORATE_CODES } from './codes/settings-corporate.ts';

/**
 * The business-code catalogue (docs/architecture.md "Request path"). Every API answer carries one of these
 * codes in `statusCode`; the HTTP status is set alongside so that proxies and logs stay meaningful.
 * The web client treats 101 as "login expired" and shows 103 and 105–108 as notifications; every
 * other non-200 code is a toast.
 *
 * Messages may hold `{name}` placeholders filled from the error's params.
 */
export const BUSINESS_CODES = {
  ...COMMON_CODES,
  ...FUNDS_CODES,
  ...LOANS_CARDS_CODES,
  ...SETTINGS_CORPORATE_CODES,
} as const;

export type BusinessCodeName = keyof typeof BUSINESS_CODES;
export type BusinessCode = (typeof BUSINESS_CODES)[BusinessCodeName]['code'];

export { NOTIFICATION_CODES } from './client-codes.ts';

/** The localized message of a catalogue entry, with its placeholders filled. */
export function businessMessage(
  name: BusinessCodeName,
  locale: Locale,
  params?: Record<string, string | number>,
): string {
  return interpolate(BUSINESS_CODES[name].message[locale], params);
}
