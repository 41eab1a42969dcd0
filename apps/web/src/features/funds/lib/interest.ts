import type { FundRateTier } from '@meridian/contracts/funds';
import { parseAmountMinor } from '@meridian/contracts/money';

/** Days of the year in the interest formula: rates are per 365 days, leap years included. */
export const DAYS_PER_YEAR = 365;

/** Decimals of a rate the calculator reads exactly ("3.65" percent → 3650000 millionths of a percent). */
const RATE_DECIMALS_MAX = 6;
const RATE_SCALE = 10n ** BigInt(RATE_DECIMALS_MAX);
const RATE_PATTERN = /^(0|[1-9]\d*)(?:\.(\d{1,6}))?$/;

/** A percent-per-year decimal string ("3.65") as an integer count of millionths of a percent; null when it is none. */
export function rateMillionths(rate: string): bigint | null {
  const match = RATE_PATTERN.exec(rate);
  if (!match) return null;
  return BigInt(match[1] ?? '0') * RATE_SCALE + BigInt((match[2] ?? '').padEnd(RATE_DECIMALS_MAX, '0'));
}

/**
 * The parts of a holding of `sharesMinor` (USD cents) that each tier's rate applies to: tier i covers
 * the shares above the previous tier's `upToShares` up to its own (`null`: no bound). A product
 * without tiers has one tier of its headline rate.
 */
export function tierSlices(
  sharesMinor: bigint,
  tiers: readonly FundRateTier[],
): { sliceMinor: bigint; rate: string }[] {
  const slices: { sliceMinor: bigint; rate: string }[] = [];
  let lowerMinor = 0n;
  for (const tier of tiers) {
    if (lowerMinor >= sharesMinor) break;
    const upperMinor = tier.upToShares === null ? sharesMinor : parseAmountMinor(tier.upToShares, 'USD');
    const topMinor = upperMinor < sharesMinor ? upperMinor : sharesMinor;
    if (topMinor > lowerMinor) slices.push({ sliceMinor: topMinor - lowerMinor, rate: tier.annualRate });
    lowerMinor = upperMinor;
  }
  return slices;
}

/** Accrual units (10⁻⁸ USD) per USD cent: the server accrues at this precision (decision 0008). */
export const E8_PER_CENT = 1_000_000n;

/**
 * One day's interest on a holding, in 10⁻⁸ USD, as the server accrues it (docs/funds.md "Interest";
 * docs/decisions/0008-savings-accrual-precision.md): Σ over the tiers of slice × rate / 365, rounded
 * down once to 10⁻⁸ USD — money owed to the user rounds down (docs/architecture.md "Money"). 99.00 at 3.65 % →
 * 990,000 (0.0099 USD). Null when a rate cannot be read.
 */
export function dailyInterestE8(sharesMinor: bigint, tiers: readonly FundRateTier[]): bigint | null {
  let numerator = 0n;
  for (const { sliceMinor, rate } of tierSlices(sharesMinor, tiers)) {
    const millionths = rateMillionths(rate);
    if (millionths === null) return null;
    numerator += sliceMinor * millionths;
  }
  // Percent (÷100), millionths (÷RATE_SCALE), per day (÷365), in 10⁻⁸ USD (×10⁶ per cent); bigint
  // division truncates = rounds down.
  return (numerator * E8_PER_CENT) / (100n * RATE_SCALE * BigInt(DAYS_PER_YEAR));
}

/** The calculator's answer: the daily interest in 10⁻⁸ USD and the total over the days in USD cents. */
export interface ExpectedInterest {
  dailyE8: bigint;
  totalMinor: bigint;
}

/**
 * Expected interest of `amount` (USD decimal text, at most 2 decimals) over `days` whole days:
 * amount × rate × days / 365 with the server's rounding — each day's interest at 10⁻⁸ USD, summed,
 * and the total rounded down to the cent once (the part below a cent is carried, not lost daily; no
 * compounding: interest is paid monthly or at maturity). Null when the amount is not a valid USD
 * amount or `days` is not a positive whole number.
 */
export function expectedInterest(
  amount: string,
  tiers: readonly FundRateTier[],
  days: number,
): ExpectedInterest | null {
  if (!Number.isInteger(days) || days <= 0) return null;
  let sharesMinor: bigint;
  try {
    sharesMinor = parseAmountMinor(amount.trim(), 'USD');
  } catch {
    return null;
  }
  const dailyE8 = dailyInterestE8(sharesMinor, tiers);
  if (dailyE8 === null) return null;
  return { dailyE8, totalMinor: (dailyE8 * BigInt(days)) / E8_PER_CENT };
}

/** The tiers of a product, or its headline rate as one unbounded tier when it has none. */
export function tiersOf(product: { annualRate: string; rateTiers: readonly FundRateTier[] }): readonly FundRateTier[] {
  return product.rateTiers.length > 0 ? product.rateTiers : [{ upToShares: null, annualRate: product.annualRate }];
}
