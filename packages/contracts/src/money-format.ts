/**
 * The one money formatter (docs/money-format.md, docs/decisions/0014-number-format.md): every
 * page, message, email and PDF statement shows an amount of an asset through `formatMoney`, so the
 * same value reads the same everywhere. Free of zod and decimal.js so the home page can import it.
 * Exports (CSV, Koinly, tax) do not use it: they keep the ledger's full precision.
 */
import {
  ASSET_DISPLAY_DECIMALS,
  type AssetCode,
  type FiatCode,
  isAssetCode,
  isFiatCode,
  toDecimalString,
} from './assets.ts';
import { DEFAULT_LOCALE, type Locale } from './locale.ts';

/**
 * Which way an amount is rounded to its display decimals (docs/decisions/0014-number-format.md):
 * - `nearest`: to the nearest, a tie away from zero (half-up; ECMA-402 `halfExpand`, the Intl default) —
 *   every amount not named below;
 * - `up`: away from zero — an amount owed (debt, repayment due, fee charged), and a liquidation or
 *   margin-call price (the price falls towards it, so the higher figure warns earlier);
 * - `down`: towards zero — an amount available (balance to withdraw, redeemable, a limit left).
 */
export type MoneyRounding = 'nearest' | 'up' | 'down';

/** The rounding each kind of figure takes; `formatMoney(..., { rounding: MONEY_ROUNDING.owed })`. */
export const MONEY_ROUNDING = {
  default: 'nearest',
  owed: 'up',
  available: 'down',
  liquidationPrice: 'up',
  marginCallPrice: 'up',
} as const satisfies Record<string, MoneyRounding>;

/** ECMA-402 rounding modes of each direction (rounding by magnitude, so a debit rounds as its credit). */
const INTL_ROUNDING_MODE = { nearest: 'halfExpand', up: 'expand', down: 'trunc' } as const;

/**
 * How the asset is named next to the number:
 * - `symbol` (default): a fiat amount with its currency symbol in the locale ("$3,180.24", zh-HK
 *   "US$3,180.24", "¥1,235"); any other asset with its code after the number ("0.10000000 BTC");
 * - `code`: the code after the number, fiat too ("3,180.24 USD");
 * - `none`: the number alone, for a template or column that names the asset itself.
 */
export type MoneyUnit = 'symbol' | 'code' | 'none';

/** Options of `formatMoney`. */
export interface FormatMoneyOptions {
  /** The reader's language (en-US by default): separators, symbol placement. */
  locale?: Locale;
  /** `nearest` by default; see `MoneyRounding` and `MONEY_ROUNDING`. */
  rounding?: MoneyRounding;
  /** `symbol` by default; see `MoneyUnit`. */
  unit?: MoneyUnit;
  /**
   * Keep every decimal the amount has when it has more than the asset's display decimals (never
   * rounds). Only for a market price, which the product shows with "at least 2, or the price's own
   * decimals" (product spec, market table); amounts never use it.
   */
  keepDecimals?: boolean;
}

/** A plain decimal, signed or not: no exponent, separators or spaces. */
const DECIMAL_PATTERN = /^-?\d+(\.\d+)?$/;

/** One `Intl.NumberFormat` per locale, decimals, rounding and currency (they are costly to build). */
const formatters = new Map<string, Intl.NumberFormat>();

function formatterOf(locale: Locale, decimals: number, rounding: MoneyRounding, currency: FiatCode | null) {
  const key = `${locale}|${decimals}|${rounding}|${currency ?? ''}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.NumberFormat(locale, {
      ...(currency ? { style: 'currency', currency, currencyDisplay: 'symbol' } : { style: 'decimal' }),
      minimumFractionDigits: decimals,
      maximumFractionDigits: decimals,
      roundingMode: INTL_ROUNDING_MODE[rounding],
      useGrouping: true,
    } as Intl.NumberFormatOptions);
    formatters.set(key, formatter);
  }
  return formatter;
}

/**
 * An amount of `asset` for people to read, in `options.locale`: rounded to the asset's display
 * decimals (`ASSET_DISPLAY_DECIMALS`) in the stated direction, grouped by the locale, named by
 * `options.unit`. `amount` is minor units (a `bigint`, e.g. a branded `AmountMinor`) or an exact
 * decimal string of any length and decimals ("3180.231", "-12.5"); both are formatted exactly,
 * beyond 2^53 too (ECMA-402 formats a decimal string without a float). A string that is no plain
 * decimal is returned as it is, so a screen never shows less than it was given.
 *
 * formatMoney('3180.231', 'USD', { rounding: 'up' }) → "$3,180.24";
 * formatMoney(1009863014n, 'USDT') → "1,009.86 USDT"; formatMoney('0.1', 'BTC') → "0.10000000 BTC".
 */
export function formatMoney(amount: string | bigint, asset: AssetCode, options: FormatMoneyOptions = {}): string {
  const text = typeof amount === 'bigint' ? toDecimalString(amount, asset) : amount;
  if (!DECIMAL_PATTERN.test(text)) return text;
  const unit = options.unit ?? 'symbol';
  const currency = unit === 'symbol' && isFiatCode(asset) ? asset : null;
  const decimals = ASSET_DISPLAY_DECIMALS[asset];
  const given = text.split('.')[1]?.length ?? 0;
  const formatter = formatterOf(
    options.locale ?? DEFAULT_LOCALE,
    options.keepDecimals && given > decimals ? given : decimals,
    options.rounding ?? 'nearest',
    currency,
  );
  // ECMA-402 reads a numeric string as an exact decimal (no float); the lib typings only list number.
  const number = formatter.format(text as unknown as number);
  return currency || unit === 'none' ? number : `${number} ${asset}`;
}

/**
 * `formatMoney` for an asset code that comes from data (a message parameter, an API field): an
 * unknown code shows the amount as given, followed by the code.
 */
export function formatMoneyOf(amount: string, asset: string, options: FormatMoneyOptions = {}): string {
  if (isAssetCode(asset)) return formatMoney(amount, asset, options);
  return options.unit === 'none' ? amount : `${amount} ${asset}`;
}
