/**
 * Beneficiaries' shares as the create form holds them: percentages with at most 2 decimals
 * (InputNumber values). Sums are taken in basis points (integers), so 33.33 + 33.33 + 33.34 is
 * exactly 100, never 99.99999999999999.
 */

/** A percentage (33.33) in basis points (3333); null and NaN count as 0. Rounds half away from zero at 2 decimals. */
export function pctToBps(pct: number | null | undefined): number {
  return typeof pct === 'number' && Number.isFinite(pct) ? Math.round(pct * 100) : 0;
}

/** The sum of the shares in basis points; 10,000 is exactly 100 %. */
export function sharesSumBps(shares: readonly (number | null | undefined)[]): number {
  return shares.reduce<number>((sum, pct) => sum + pctToBps(pct), 0);
}

/** Basis points as the wire's percentage text: 3333 → "33.33", 10000 → "100". */
export function bpsToPctText(bps: number): string {
  const whole = Math.trunc(bps / 100);
  const fraction = Math.abs(bps % 100);
  return fraction === 0 ? String(whole) : `${whole}.${String(fraction).padStart(2, '0').replace(/0$/, '')}`;
}
