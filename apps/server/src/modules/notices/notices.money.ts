/**
 * Money in messages: a module passes an amount as its exact decimal string and asset
 * (`moneyParam`), and the message is formatted by the one money formatter (`formatMoney`,
 * docs/money-format.md) when it is rendered — in the reader's language, for the message centre,
 * Web Push and email alike. No template formats an amount itself.
 */
import type { Locale } from '@meridian/contracts/locale';
import { formatMoneyOf, type MoneyRounding, type MoneyUnit } from '@meridian/contracts/money-format';

/**
 * An amount parameter of a message, stored as it is in the message's template (jsonb):
 * `amount` is an exact decimal string ("1009.863014", "3180.231"), `asset` its code ("USDT", "USD").
 * `rounding` (default `nearest`) and `unit` (default `symbol`) are `formatMoney`'s options.
 */
export interface MoneyParam {
  amount: string;
  asset: string;
  rounding?: MoneyRounding;
  unit?: MoneyUnit;
}

/** A message parameter: plain text or number (shown as given), or an amount formatted at render time. */
export type NoticeParam = string | number | MoneyParam;

/**
 * A message parameter for an amount: `moneyParam('1009.863014', 'USDT')` renders "1,009.86 USDT";
 * `moneyParam('3180.231', 'USD', { rounding: 'up' })` renders "$3,180.24" (en-US) or
 * "US$3,180.24" (zh-HK). Use `unit: 'none'` where the template names the asset itself ("{amount} {coin}").
 */
export function moneyParam(
  amount: string,
  asset: string,
  options: { rounding?: MoneyRounding; unit?: MoneyUnit } = {},
): MoneyParam {
  return {
    amount,
    asset,
    ...(options.rounding ? { rounding: options.rounding } : {}),
    ...(options.unit ? { unit: options.unit } : {}),
  };
}

function isMoneyParam(value: unknown): value is MoneyParam {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as MoneyParam).amount === 'string' &&
    typeof (value as MoneyParam).asset === 'string'
  );
}

/** The parameters of a message as text in `locale`: amounts through `formatMoney`, the rest as given. */
export function renderParams(
  params: Readonly<Record<string, NoticeParam>>,
  locale: Locale,
): Record<string, string | number> {
  const rendered: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(params)) {
    rendered[name] = isMoneyParam(value)
      ? formatMoneyOf(value.amount, value.asset, { locale, rounding: value.rounding, unit: value.unit })
      : value;
  }
  return rendered;
}
