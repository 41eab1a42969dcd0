import { DEFAULT_LOCALE } from '@meridian/contracts/locale';
import { type FormatMoneyOptions, formatMoney, formatMoneyOf } from '@meridian/contracts/money-format';
import { isAssetCode } from '@meridian/contracts/assets';
import i18next from 'i18next';
import { matchLocale } from './locale.ts';

/**
 * An amount for the page, in the language the page is shown in: the contracts' `formatMoney`
 * (docs/money-format.md) with the current i18next locale. `amount` is an exact decimal string of
 * the API, or minor units (`bigint`) of a known asset. Examples (en-US): money('3180.231', 'USD',
 * { rounding: 'up' }) → "$3,180.24"; money('1009.863014', 'USDT') → "1,009.86 USDT";
 * money('0.1', 'BTC', { unit: 'none' }) → "0.10000000". An unknown asset code shows the amount as given.
 */
export function money(
  amount: string | bigint,
  asset: string,
  options: Omit<FormatMoneyOptions, 'locale'> = {},
): string {
  const locale = matchLocale(i18next.language) ?? DEFAULT_LOCALE;
  if (typeof amount === 'bigint') {
    if (!isAssetCode(asset)) return `${amount} ${asset}`;
    return formatMoney(amount, asset, { ...options, locale });
  }
  return formatMoneyOf(amount, asset, { ...options, locale });
}
