import { BUSINESS_CODES } from '@meridian/contracts/codes';
import { parseAmountMinor, toDecimalString } from '@meridian/contracts/money';
import { money } from '../../../lib/money.ts';

/** What is wrong with a typed amount, with the figure the message names (USD, display form). */
export type AmountProblem =
  { key: 'format' } | { key: 'zero' } | { key: 'belowMin' | 'aboveMax' | 'limit' | 'insufficient'; amount: string };

/** The bounds a subscription or redemption amount must respect, USD decimal strings; absent ones are not checked. */
export interface AmountBounds {
  min?: string | null;
  max?: string | null;
  /** What the per-user limit still allows (limit − holding). */
  limitLeft?: string | null;
  /** What the source holds: the wallet coin's balance, or the usable current shares. */
  available?: string | null;
}

/** USD text to cents; null when it is no USD amount (more than 2 decimals included). */
export function usdMinorOf(text: string): bigint | null {
  try {
    return parseAmountMinor(text.trim(), 'USD');
  } catch {
    return null;
  }
}

/** Coin text (6 decimals) cut down to whole cents: what of a wallet balance can buy shares. */
export function usableUsdOf(amount: string, asset: 'USDT' | 'USDC' | 'USDE' | 'USD'): string {
  try {
    const minor = parseAmountMinor(amount, asset);
    // 6-decimal coins have 10,000 minor units per cent; cut toward zero (the user cannot spend more).
    const cents = asset === 'USD' ? minor : minor / 10_000n;
    return toDecimalString(cents, 'USD');
  } catch {
    return '0.00';
  }
}

/**
 * The first rule a typed amount breaks, checked in the server's order so the page names the same
 * rule the server would: a valid USD amount
 * with at most 2 decimals, above zero, at least `min`, at most `max`, within the limit left, and
 * within what the source holds. Null when it passes; the server checks again.
 */
export function checkFundAmount(text: string, bounds: AmountBounds): AmountProblem | null {
  const amountMinor = usdMinorOf(text);
  if (amountMinor === null) return { key: 'format' };
  if (amountMinor === 0n) return { key: 'zero' };
  const over = (bound: string | null | undefined) => (bound === null || bound === undefined ? null : usdMinorOf(bound));
  const min = over(bounds.min);
  if (min !== null && amountMinor < min)
    return { key: 'belowMin', amount: money(min, 'USD', { unit: 'none', rounding: 'up' }) };
  const max = over(bounds.max);
  if (max !== null && amountMinor > max)
    return { key: 'aboveMax', amount: money(max, 'USD', { unit: 'none', rounding: 'down' }) };
  const left = over(bounds.limitLeft);
  if (left !== null && amountMinor > left)
    return { key: 'limit', amount: money(left, 'USD', { unit: 'none', rounding: 'down' }) };
  const available = over(bounds.available);
  if (available !== null && amountMinor > available)
    return { key: 'insufficient', amount: money(available, 'USD', { unit: 'none', rounding: 'down' }) };
  return null;
}

/** `limit − holding`, never below zero, as USD text; null when either is unknown. */
export function limitLeftOf(limit: string | undefined, holding: string | undefined): string | null {
  const limitMinor = limit === undefined ? null : usdMinorOf(limit);
  const holdingMinor = holding === undefined ? null : usdMinorOf(holding);
  if (limitMinor === null || holdingMinor === null) return null;
  const left = limitMinor - holdingMinor;
  return toDecimalString(left > 0n ? left : 0n, 'USD');
}

/**
 * Business codes of a subscription or redemption that the server refuses because of the amount:
 * shown under the amount field, not in the security check (the codes were right, the amount was not).
 */
export const AMOUNT_REFUSAL_CODES: ReadonlySet<number> = new Set([
  BUSINESS_CODES.INSUFFICIENT_BALANCE.code,
  BUSINESS_CODES.FUND_BELOW_MIN_PURCHASE.code,
  BUSINESS_CODES.FUND_ABOVE_MAX_PURCHASE.code,
  BUSINESS_CODES.FUND_LIMIT_EXCEEDED.code,
  BUSINESS_CODES.FUND_BELOW_MIN_REDEEM.code,
  BUSINESS_CODES.FUND_ABOVE_MAX_REDEEM.code,
]);

/** Refusals about the coin chosen (off its 1:1 band): shown under the coin field. */
export const COIN_REFUSAL_CODES: ReadonlySet<number> = new Set([BUSINESS_CODES.FUND_COIN_OFF_PEG.code]);

/** Refusals about the bank account chosen. */
export const BANK_REFUSAL_CODES: ReadonlySet<number> = new Set([BUSINESS_CODES.FUND_BANK_ACCOUNT_NOT_FOUND.code]);

/** The order form's field of each refusal code (amount, coin, bank account): `useModalForm`'s `fieldOfCode`. */
export const ORDER_FIELD_OF_CODE: Readonly<Partial<Record<number, 'amount' | 'coin' | 'bankAccountId'>>> =
  Object.fromEntries([
    ...[...AMOUNT_REFUSAL_CODES].map((code) => [code, 'amount'] as const),
    ...[...COIN_REFUSAL_CODES].map((code) => [code, 'coin'] as const),
    ...[...BANK_REFUSAL_CODES].map((code) => [code, 'bankAccountId'] as const),
  ]);
