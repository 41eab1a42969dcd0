import {
  type AssetCode,
  isAssetCode,
  parseAmountMinor,
  readAmountMinor,
  toDecimalString,
} from '@meridian/contracts/money';
import { money } from '../../../lib/money.ts';

/** Why an entered withdrawal amount is refused, with its message parameters. */
export type AmountProblem =
  | { key: 'amountInvalid' }
  | { key: 'amountPrecision'; decimals: number }
  | { key: 'withdrawMin'; limit: string; unit: string }
  | { key: 'withdrawMax'; limit: string; unit: string }
  | { key: 'exceedsAvailable' };

/** The limits of one coin on one network, and what the user has, in the coin's decimals. */
export interface WithdrawLimits {
  coin: string;
  withdrawMin: string;
  withdrawMax: string;
  withdrawFee: string;
  available: string;
}

/**
 * Check an entered amount against the amount rules the way the server will: a valid decimal with no more
 * decimals than the coin has, not below the minimum, not above the single-withdrawal maximum, and
 * amount + fee within the available balance. Exact: minor units, never floating point.
 * @returns undefined when the amount is acceptable.
 */
export function checkWithdrawAmount(text: string, limits: WithdrawLimits): AmountProblem | undefined {
  if (!isAssetCode(limits.coin)) return { key: 'amountInvalid' };
  const asset: AssetCode = limits.coin;
  // The contracts' reading, as the server's: a plain decimal, at most the coin's decimals, above zero.
  const read = readAmountMinor(text.trim(), asset);
  if ('refusal' in read) {
    const { refusal } = read;
    return refusal.messageKey === 'validation.amountPrecision'
      ? { key: 'amountPrecision', decimals: Number(refusal.params.decimals) }
      : { key: 'amountInvalid' };
  }
  const minor = read.amountMinor;
  const min = parseAmountMinor(limits.withdrawMin, asset);
  const max = parseAmountMinor(limits.withdrawMax, asset);
  if (minor < min)
    return { key: 'withdrawMin', limit: money(min, asset, { unit: 'none', rounding: 'up' }), unit: asset };
  if (minor > max)
    return { key: 'withdrawMax', limit: money(max, asset, { unit: 'none', rounding: 'down' }), unit: asset };
  if (minor + parseAmountMinor(limits.withdrawFee, asset) > parseAmountMinor(limits.available, asset))
    return { key: 'exceedsAvailable' };
  return undefined;
}

/**
 * What leaves the available balance: the amount plus the network fee (the fee is charged on top, the
 * recipient gets the amount itself), as a decimal string of the coin; undefined if unreadable.
 */
export function totalDebited(text: string, fee: string, coin: string): string | undefined {
  if (!isAssetCode(coin)) return undefined;
  try {
    return toDecimalString(parseAmountMinor(text.trim(), coin) + parseAmountMinor(fee, coin), coin);
  } catch {
    return undefined;
  }
}

/** The largest amount that can be withdrawn: available minus the fee, capped by the maximum; '0' if none. */
export function maxWithdrawable(limits: WithdrawLimits): string {
  if (!isAssetCode(limits.coin)) return '0';
  const asset: AssetCode = limits.coin;
  const room = parseAmountMinor(limits.available, asset) - parseAmountMinor(limits.withdrawFee, asset);
  const max = parseAmountMinor(limits.withdrawMax, asset);
  return toDecimalString(room < 0n ? 0n : room > max ? max : room, asset);
}
