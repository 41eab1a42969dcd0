import { TRUST_ASSET } from '@meridian/contracts/trust';
import { money } from '../../../lib/money.ts';

/** A trust amount (the API's exact decimal string of BTC) for the page: "0.50000000 BTC" in en-US. */
export const btc = (amount: string): string => money(amount, TRUST_ASSET);

/** An ISO instant as the trust pages show it: medium date and short time in `locale`, local time zone. */
export function formatDateTime(iso: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}
