import { describe, expect, it } from 'vitest';
import { bpsToPctText, pctToBps, sharesSumBps } from './shares.ts';

/** The create form's live sum of shares is exact in basis points and its wire text has at most 2 decimals. */
describe('beneficiary shares', () => {
  it('sums 33.33 + 33.33 + 33.34 to exactly 100 % (10,000 bps), where floats would not', () => {
    expect(sharesSumBps([33.33, 33.33, 33.34])).toBe(10_000);
    expect(sharesSumBps([33.33, 33.33, 33.33])).toBe(9_999);
  });
  it('counts an empty share as 0', () => {
    expect(sharesSumBps([60, null, undefined, Number.NaN])).toBe(6_000);
    expect(pctToBps(0.01)).toBe(1);
  });
  it('writes the wire text without trailing zeros', () => {
    expect(bpsToPctText(3_333)).toBe('33.33');
    expect(bpsToPctText(7_550)).toBe('75.5');
    expect(bpsToPctText(10_000)).toBe('100');
    expect(bpsToPctText(5)).toBe('0.05');
  });
});
