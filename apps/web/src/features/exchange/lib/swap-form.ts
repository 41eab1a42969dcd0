import { FLASH_SLIPPAGE_BPS_MAX } from '@meridian/contracts/exchange';
import { MARKET_COIN_CODES, type MarketCoinCode } from '@meridian/contracts/market';
import { parseAmountMinor, readAmountMinor, toDecimalString } from '@meridian/contracts/money';
import type { BalanceContent } from '@meridian/contracts/wallet';

/**
 * The exchange form's rules, kept out of the components so they are exact and testable: amounts are
 * decimal strings read into minor units (`bigint`) with the contracts' helpers, never numbers.
 */

/** Why an entered amount is refused before asking for a quote. */
export type SwapAmountProblem =
  { key: 'amountInvalid' } | { key: 'amountPrecision'; decimals: number } | { key: 'exceedsAvailable' };

/** The coins the exchange trades (every one against every other, priced through USD). */
export const EXCHANGE_COINS: readonly MarketCoinCode[] = MARKET_COIN_CODES;
/** The swap panel's two ways to exchange: a firm quote to confirm, or a flash exchange at the live rate. */
export type ExchangeMode = 'swap' | 'flash';

/** The default pair. */
export const DEFAULT_PAIR = { from: 'USDT', to: 'USDE' } as const satisfies {
  from: MarketCoinCode;
  to: MarketCoinCode;
};

export function isExchangeCoin(value: string): value is MarketCoinCode {
  return (EXCHANGE_COINS as readonly string[]).includes(value);
}

/**
 * Check what the user pays against what they have: `payAmount` (entered on the from side, or the
 * quote's `fromAmount` when the amount was entered on the to side) must not exceed `available`.
 * An unknown balance (still loading) is not a reason to refuse; the server checks again.
 */
export function exceedsAvailable(payAmount: string, coin: MarketCoinCode, available: string | undefined): boolean {
  if (available === undefined) return false;
  try {
    return parseAmountMinor(payAmount, coin) > parseAmountMinor(available, coin);
  } catch {
    return false;
  }
}

/**
 * Check the entered amount before quoting: format, precision, zero, and — when it is the amount paid
 * (side `from`) — the available balance.
 * @returns undefined when the amount may be quoted.
 */
export function checkSwapAmount(
  text: string,
  coin: MarketCoinCode,
  side: 'from' | 'to',
  available: string | undefined,
): SwapAmountProblem | undefined {
  // The contracts' reading, as the server's: a plain decimal, at most the coin's decimals, above zero.
  const read = readAmountMinor(text.trim(), coin);
  if ('refusal' in read) {
    const { refusal } = read;
    return refusal.messageKey === 'validation.amountPrecision'
      ? { key: 'amountPrecision', decimals: Number(refusal.params.decimals) }
      : { key: 'amountInvalid' };
  }
  if (side === 'from' && available !== undefined && read.amountMinor > parseAmountMinor(available, coin))
    return { key: 'exceedsAvailable' };
  return undefined;
}

/** The available (spendable) amount of `coin` in the Main account, as a wire decimal; '0' in the coin's precision when none. */
export function availableOf(balance: BalanceContent | undefined, coin: MarketCoinCode): string | undefined {
  if (!balance) return undefined;
  const main = balance.wallet.accounts.find((account) => account.accountType === 'MainAccount');
  const asset = main?.assets.find((item) => item.coinCode === coin && item.type === 'available');
  return asset?.amount ?? toDecimalString(0n, coin);
}

/**
 * Whole seconds left until `deadlineMs`, rounded up (9.2 s left shows 10), never below zero. The
 * deadline is the moment the quote was asked for plus its 10 s, by the browser's clock: the
 * server made the quote after that moment, so the countdown never outlives the quote even when
 * the two clocks disagree.
 */
export function secondsLeft(deadlineMs: number, nowMs: number): number {
  return Math.max(0, Math.ceil((deadlineMs - nowMs) / 1000));
}

/** Slippage entered in percent ('0.5') to basis points (50); undefined when not 0–5% with at most 2 decimals. */
export function slippagePercentToBps(text: string): number | undefined {
  const match = /^(\d{1,2})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) return undefined;
  const bps = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return bps <= FLASH_SLIPPAGE_BPS_MAX ? bps : undefined;
}

/** Basis points (50) to the percent text of the slippage field ('0.5'). */
export function bpsToPercentText(bps: number): string {
  const whole = Math.trunc(bps / 100);
  const fraction = String(bps % 100)
    .padStart(2, '0')
    .replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : String(whole);
}

/**
 * The least a flash exchange may give for `toAmount` at `slippageBps`: what the live rate may fall
 * to before the server refuses, rounded down (it is an amount the user receives).
 */
export function minimumReceived(toAmount: string, coin: MarketCoinCode, slippageBps: number): string {
  const minor = parseAmountMinor(toAmount, coin);
  return toDecimalString((minor * BigInt(10_000 - slippageBps)) / 10_000n, coin);
}
