import { describe, expect, it } from 'vitest';
import {
  assertLoanTransition,
  dailyRatePct,
  LoanDecimal,
  LOAN_TRANSITIONS,
  overdueInterest,
  planLiquidation,
  priceAtLtv,
  repaymentDateOf,
  splitPayment,
  splitShortfall,
  hongKongMinuteText,
  termInterest,
} from './loans.rules.ts';

/** The loan rules on hand-worked numbers. */
describe('loan rules', () => {
  it('interest = principal × APR ÷ 365 × days, rounded up to the micro unit', () => {
    // 10,000 USDT × 12 % × 30 ÷ 365 = 98.630136986… → 98.630137.
    expect(termInterest(10_000_000_000n, 1200, 30)).toBe(98_630_137n);
    // 1 micro × 8 % × 360 ÷ 365 = 0.0789… → 1 (owed by the user: up).
    expect(termInterest(1n, 800, 360)).toBe(1n);
    expect(dailyRatePct(1200)).toBe('0.0328767123');
    // Overdue: 3 × daily rate × 2 days on 10,000 = 19.726027397… → 19.726028.
    expect(overdueInterest(10_000_000_000n, 1200, 3, 2)).toBe(19_726_028n);
    expect(overdueInterest(10_000_000_000n, 1200, 3, 0)).toBe(0n);
  });

  it('liquidation price = debt ÷ (collateral × 90 %), rounded up to 1e-8', () => {
    expect(priceAtLtv(10_098_630_137n, 30_000_000n, 9000)!.toFixed()).toBe('37402.33384075');
    expect(priceAtLtv(1n, 0n, 9000)).toBeNull();
  });

  it('the repayment date is the Hong Kong borrow day + term days', () => {
    // 2026-11-20 17:00 UTC is already 21 Nov in Hong Kong.
    // 01:00 HKT on 21 Nov and 23:59:59 HKT on 20 Nov: the day of borrowing is day 1 of 30.
    expect(repaymentDateOf(new Date('2026-11-20T17:00:00Z'), 30)).toBe('2026-12-20');
    expect(repaymentDateOf(new Date('2026-11-20T15:59:59Z'), 30)).toBe('2026-12-19');
    expect(repaymentDateOf(new Date('2026-11-20T16:10:00Z'), 30)).toBe('2026-12-20'); // 00:10 HKT 21 Nov
  });

  it('allows only the transitions of the table', () => {
    expect(() => assertLoanTransition(0, 2)).not.toThrow();
    expect(() => assertLoanTransition(2, 3)).not.toThrow();
    expect(() => assertLoanTransition(3, 6)).not.toThrow();
    expect(() => assertLoanTransition(4, 9)).not.toThrow();
    expect(() => assertLoanTransition(3, 9)).toThrow(/not an allowed transition/);
    expect(() => assertLoanTransition(6, 3)).toThrow();
    expect(() => assertLoanTransition(5, 5)).toThrow();
    for (const final of [1, 5, 6, 7, 8, 9] as const) expect(LOAN_TRANSITIONS[final]).toEqual([]);
  });

  it('splits a payment: interest, then overdue interest, then principal with its early charge', () => {
    const loan = {
      outstandingPrincipalMinor: 10_000_000_000n,
      interestMinor: 98_630_137n,
      interestPaidMinor: 0n,
      overdueInterestMinor: 0n,
      overdueInterestPaidMinor: 0n,
    };
    expect(splitPayment(loan, undefined, true, 200)).toMatchObject({
      principalMinor: 10_000_000_000n,
      feeMinor: 200_000_000n,
      totalMinor: 10_298_630_137n,
      isFull: true,
    });
    expect(splitPayment(loan, 50_000_000n, true, 200)).toMatchObject({
      interestMinor: 50_000_000n,
      principalMinor: 0n,
      feeMinor: 0n,
      isFull: false,
    });
    expect(splitPayment(loan, undefined, false, 200).feeMinor).toBe(0n);
  });

  it('plans a partial liquidation back to 70 % and a full one with a shortfall', () => {
    const partial = planLiquidation({
      debtMinor: 10_098_630_137n,
      collateralMinor: 30_000_000n,
      price: new LoanDecimal('37402.33384075'),
      targetLtvBps: 7000,
      feeBps: 200,
      isFullOnly: false,
    });
    expect(partial).toMatchObject({
      kind: 'PARTIAL',
      collateralSoldMinor: 21_428_572n,
      proceedsMinor: 8_014_786_036n,
      feeMinor: 160_295_721n,
      debtRepaidMinor: 7_854_490_315n,
    });
    const full = planLiquidation({
      debtMinor: 10_098_630_137n,
      collateralMinor: 30_000_000n,
      price: new LoanDecimal('30000'),
      targetLtvBps: 7000,
      feeBps: 200,
      isFullOnly: false,
    });
    // A shortfall (docs/decisions/0006-shortfall-income.md): the 9,000 proceeds all repay debt, no
    // fee; 10,098.630137 − 9,000 = 1,098.630137 not covered.
    expect(full).toMatchObject({
      kind: 'FULL',
      collateralSoldMinor: 30_000_000n,
      feeMinor: 0n,
      debtRepaidMinor: 9_000_000_000n,
      shortfallMinor: 1_098_630_137n,
      collateralReturnedMinor: 0n,
    });
    // The sale covers the debt but not the whole fee: at 34,000 the 0.3 BTC fetch 10,200 (LTV 99.01 %,
    // beyond a partial liquidation); the debt is paid in full and the fee is the rest, 101.369863
    // (not 2 % × 10,200 = 204).
    expect(
      planLiquidation({
        debtMinor: 10_098_630_137n,
        collateralMinor: 30_000_000n,
        price: new LoanDecimal('34000'),
        targetLtvBps: 7000,
        feeBps: 200,
        isFullOnly: false,
      }),
    ).toMatchObject({
      kind: 'FULL',
      collateralSoldMinor: 30_000_000n,
      debtRepaidMinor: 10_098_630_137n,
      feeMinor: 101_369_863n,
      shortfallMinor: 0n,
    });
    // Overdue (full only) at 50,000: sell ⌈10,098.630137 ÷ 0.98 ÷ 50,000⌉ BTC, return the rest.
    const overdue = planLiquidation({
      debtMinor: 10_098_630_137n,
      collateralMinor: 30_000_000n,
      price: new LoanDecimal('50000'),
      targetLtvBps: 7000,
      feeBps: 200,
      isFullOnly: true,
    });
    expect(overdue.kind).toBe('FULL');
    expect(overdue.debtRepaidMinor).toBe(10_098_630_137n);
    expect(overdue.shortfallMinor).toBe(0n);
    expect(overdue.collateralSoldMinor + overdue.collateralReturnedMinor).toBe(30_000_000n);
    // 10,098.630137 ÷ 0.98 = 10,304.724629…; ÷ 50,000 = 0.2060944925… BTC → 0.20609450.
    expect(overdue.collateralSoldMinor).toBe(20_609_450n);
  });

  it('a shortfall’s proceeds pay principal first, then term interest, then overdue interest', () => {
    const loan = {
      outstandingPrincipalMinor: 10_000_000_000n,
      interestMinor: 98_630_137n,
      interestPaidMinor: 0n,
      overdueInterestMinor: 19_726_028n,
      overdueInterestPaidMinor: 0n,
    };
    expect(splitShortfall(loan, 9_000_000_000n)).toMatchObject({
      principalMinor: 9_000_000_000n,
      interestMinor: 0n,
      overdueInterestMinor: 0n,
      feeMinor: 0n,
      isFull: false,
    });
    // 10,100: 10,000 principal, 98.630137 interest, 1.369863 of the 19.726028 overdue interest.
    expect(splitShortfall(loan, 10_100_000_000n)).toMatchObject({
      principalMinor: 10_000_000_000n,
      interestMinor: 98_630_137n,
      overdueInterestMinor: 1_369_863n,
      totalMinor: 10_100_000_000n,
    });
  });

  it('writes the cure deadline in Hong Kong time (UTC+8)', () => {
    expect(hongKongMinuteText(new Date('2026-11-20T06:20:00Z'))).toBe('2026-11-20 14:20');
    expect(hongKongMinuteText(new Date('2026-11-20T16:05:00Z'))).toBe('2026-11-21 00:05');
  });
});
