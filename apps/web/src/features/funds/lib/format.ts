import { parseAmountMinor, toDecimalString } from '@meridian/contracts/money';
import { money } from '../../../lib/money.ts';

/**
 * A non-negative amount of 10⁻⁸ USD for display (the savings calculator's daily interest, shown
 * below the cent on purpose, docs/funds.md): the whole cents by the money formatter, then the
 * digits below the cent without trailing zeros. 990,000 → "0.0099"; 123,456,700 → "1.234567"; 100,000,000 → "1.00".
 */
export function usdOfE8(e8: bigint): string {
  const subCent = (e8 % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '');
  return `${money(e8 / 1_000_000n, 'USD', { unit: 'none', rounding: 'down' })}${subCent}`;
}

/** A percent-per-year rate ("3.65") for display: "3.65%". Rates are shown as the server gives them. */
export function percent(rate: string): string {
  return `${rate}%`;
}

/** Whether a USD text is above zero. */
export function isPositive(amount: string): boolean {
  return /[1-9]/.test(amount);
}

/** The exact sum of USD texts (added as cents, never as floats); a text that is no USD amount counts as 0. */
export function addUsd(...amounts: string[]): string {
  let totalMinor = 0n;
  for (const amount of amounts) {
    try {
      totalMinor += parseAmountMinor(amount, 'USD');
    } catch {
      // Not an amount: nothing to add (the API always sends 2-decimal strings).
    }
  }
  return toDecimalString(totalMinor, 'USD');
}
