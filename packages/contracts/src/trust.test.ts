import { describe, expect, it } from 'vitest';
import { createTrustBodySchema, shareBpsToPct, sharePctToBps, trustEntrustment } from './trust.ts';

/** The 2 % entrustment fee is owed by the user: rounded UP to the satoshi; the net is the rest. */
describe('trustEntrustment', () => {
  it('0.12345678 BTC → fee 0.00246914 (246,913.56 sat rounded up), net 0.12098764', () => {
    expect(trustEntrustment(12_345_678n)).toEqual({ feeMinor: 246_914n, netMinor: 12_098_764n });
  });
  it('an exact 2 % is not rounded: 0.01 BTC → fee 0.0002', () => {
    expect(trustEntrustment(1_000_000n)).toEqual({ feeMinor: 20_000n, netMinor: 980_000n });
  });
  it('rounds any fraction of a satoshi up: 51 sat → fee 2 (1.02), 50 sat → fee 1', () => {
    expect(trustEntrustment(51n).feeMinor).toBe(2n);
    expect(trustEntrustment(50n).feeMinor).toBe(1n);
  });
});

describe('beneficiary shares', () => {
  it('reads percentages with up to 2 decimals as basis points and back', () => {
    expect(sharePctToBps('33.34')).toBe(3_334);
    expect(sharePctToBps('75.5')).toBe(7_550);
    expect(sharePctToBps('100')).toBe(10_000);
    expect(shareBpsToPct(7_550)).toBe('75.50');
  });
  it('refuses shares that do not sum to exactly 100 %, on `beneficiaries`', () => {
    const body = {
      name: 'T',
      termMonths: null,
      isRevocable: true,
      inactivityMonths: 6,
      beneficiaries: [
        { name: 'A', email: 'a@example.com', sharePct: '50' },
        { name: 'B', email: 'b@example.com', sharePct: '49.99' },
      ],
    };
    const result = createTrustBodySchema.safeParse(body);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['beneficiaries', 'validation.trustSharesSum'],
    ]);
    const fixed = { ...body, beneficiaries: [body.beneficiaries[0], { ...body.beneficiaries[1], sharePct: '50' }] };
    expect(createTrustBodySchema.safeParse(fixed).success).toBe(true);
  });
});
