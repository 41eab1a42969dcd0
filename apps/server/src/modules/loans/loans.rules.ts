import assert from 'node:assert/strict';
import { LOAN_STATUS, type LoanStatus } from '@meridian/contracts/loans';
import Decimal from 'decimal.js';
import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc.js';
import { hongKongDay } from '../../platform/calendar/business-calendar.ts';

dayjs.extend(utc);

/**
 * The loan rules, each written once, as pure functions over minor units.
 *
 * Units: collateral in satoshi (1e-8 BTC); debt and every loan-coin amount in micro units (1e-6,
 * the precision of USDT, USDC and USDE, each valued at 1 USD); prices in USD per BTC as exact
 * decimals. The USD value of `c` satoshi at price `p`, in loan-coin micro units, is `c × p ÷ 100`.
 * Rounding (the shared architecture: interest and fees owed by the user round up, what the user receives
 * (collateral returned, proceeds credited) rounds down, collateral taken from the user rounds up.
 */

/** Exact decimals for rates and prices: 60 significant digits. */
export const LoanDecimal = Decimal.clone({ precision: 60, rounding: Decimal.ROUND_HALF_EVEN });
export type LoanDecimal = Decimal;

const BPS = 10_000n;
const DAYS_PER_YEAR = 365n;
/** Decimals of a stored liquidation price (USD per BTC). */
export const PRICE_DECIMALS = 8;

/** ⌈a ÷ b⌉ for a ≥ 0, b > 0. */
export function ceilDiv(a: bigint, b: bigint): bigint {
  assert.ok(a >= 0n && b > 0n, 'ceilDiv of non-negative by positive');
  return (a + b - 1n) / b;
}

/** ⌈x⌉ of a non-negative exact decimal as bigint. */
function ceilBig(x: Decimal): bigint {
  return BigInt(x.toDecimalPlaces(0, Decimal.ROUND_CEIL).toFixed(0));
}
/** ⌊x⌋ of a non-negative exact decimal as bigint. */
function floorBig(x: Decimal): bigint {
  return BigInt(x.toDecimalPlaces(0, Decimal.ROUND_FLOOR).toFixed(0));
}

// ---------------------------------------------------------------- statuses

/**
 * The allowed status transitions (codes): 0 init → 2 processing → 3 repayable;
 * 0/2 → 1 fail (the pool lacks liquidity); 3 → 4 overdue (after the repayment date); 3 → 6 early
 * repaid, 7 repaid (on the repayment date), 5 price liquidation; 4 → 8 overdue repaid, 9 overdue
 * liquidation, 5 price liquidation. 1, 5, 6, 7, 8, 9 are final.
 */
export const LOAN_TRANSITIONS: Readonly<Record<LoanStatus, readonly LoanStatus[]>> = {
  0: [1, 2],
  1: [],
  2: [1, 3],
  3: [4, 5, 6, 7],
  4: [5, 8, 9],
  5: [],
  6: [],
  7: [],
  8: [],
  9: [],
};

/**
 * Assert that `from → to` is an allowed transition (a programmer error otherwise).
 * @throws AssertionError for a transition the table does not list.
 */
export function assertLoanTransition(from: number, to: LoanStatus): void {
  assert.ok(
    (LOAN_TRANSITIONS[from as LoanStatus] ?? []).includes(to),
    `loan status ${from} → ${to} is not an allowed transition`,
  );
}

/** Open loans (debt owed, collateral held): 3 repayable and 4 overdue. */
export function isOpenLoan(status: number): boolean {
  return status === LOAN_STATUS.REPAYABLE || status === LOAN_STATUS.OVERDUE;
}

// ---------------------------------------------------------------- days

/** `day` (YYYY-MM-DD) plus `days` calendar days. */
export function addDays(day: string, days: number): string {
  return dayjs.utc(day).add(days, 'day').format('YYYY-MM-DD');
}

/** Calendar days from `from` to `to` (both YYYY-MM-DD); negative when `to` is earlier. */
export function daysBetween(from: string, to: string): number {
  return dayjs.utc(to).diff(dayjs.utc(from), 'day');
}

/**
 * The repayment date of a loan borrowed at `borrowedAt` for `termDays` (docs/decisions/0007-loan-dates.md):
 * interest is counted by Hong Kong natural day and a part of a day counts as one, so the day of
 * borrowing is the term's first day and the last is `termDays − 1` days later; the loan is due by
 * the end of that day (23:59 HKT) and overdue from the next. 30 days from 00:10 or from 23:50 HKT
 * on 21 Nov → due 20 Dec 23:59 HKT: 30 natural days, 30 days of interest.
 */
export function repaymentDateOf(borrowedAt: Date, termDays: number): string {
  return addDays(hongKongDay(borrowedAt), termDays - 1);
}

// ---------------------------------------------------------------- rates and interest

/** Daily rate in percent: APR ÷ 365, exact, shown with 10 decimals ("0.0328767123"). */
export function dailyRatePct(annualRateBps: number): string {
  return new LoanDecimal(annualRateBps).div(100).div(365).toDecimalPlaces(10, Decimal.ROUND_HALF_EVEN).toFixed(10);
}

/** Basis points as a percent text: 7000 → "70", 1250 → "12.5". */
export function bpsToPct(bps: number): string {
  return new LoanDecimal(bps).div(100).toString();
}

/**
 * Interest of a loan: principal × (APR ÷ 365) × term days, rounded UP to the micro unit (owed by the
 * user), owed in full whatever the repayment date.
 * 10,000 USDT, 12 %, 30 days → ⌈98.630136986…⌉ = 98.630137 USDT.
 */
export function termInterest(principalMinor: bigint, annualRateBps: number, termDays: number): bigint {
  return ceilDiv(principalMinor * BigInt(annualRateBps) * BigInt(termDays), BPS * DAYS_PER_YEAR);
}

/**
 * Overdue interest for `days` natural days: outstanding principal × multiplier (3) × daily rate ×
 * days, rounded up.
 */
export function overdueInterest(
  outstandingPrincipalMinor: bigint,
  annualRateBps: number,
  multiplier: number,
  days: number,
): bigint {
  if (days <= 0) return 0n;
  return ceilDiv(
    outstandingPrincipalMinor * BigInt(annualRateBps) * BigInt(multiplier) * BigInt(days),
    BPS * DAYS_PER_YEAR,
  );
}

/** `amountMinor` × `bps` ÷ 10,000, rounded up (a fee owed by the user). */
export function feeOf(amountMinor: bigint, bps: number): bigint {
  return ceilDiv(amountMinor * BigInt(bps), BPS);
}

// ---------------------------------------------------------------- LTV and prices

/** The loan-coin value (micro units) of `collateralMinor` satoshi at `price`, exact. */
export function collateralValue(collateralMinor: bigint, price: Decimal): Decimal {
  return new LoanDecimal(collateralMinor.toString()).mul(price).div(100);
}

/** LTV as a fraction: debt ÷ (collateral × price); Infinity without collateral. */
export function ltvOf(debtMinor: bigint, collateralMinor: bigint, price: Decimal): Decimal {
  if (collateralMinor === 0n || price.isZero()) return new LoanDecimal(debtMinor === 0n ? 0 : Infinity);
  return new LoanDecimal(debtMinor.toString()).div(collateralValue(collateralMinor, price));
}

/** An LTV fraction as a percent text with 2 decimals, rounded up (never shown lower than it is). */
export function ltvPctText(ltv: Decimal): string {
  if (!ltv.isFinite()) return '999999.99';
  return ltv.mul(100).toDecimalPlaces(2, Decimal.ROUND_CEIL).toFixed(2);
}

/** Whether `ltv` (fraction) is at most `bps`. */
export function isLtvWithin(ltv: Decimal, bps: number): boolean {
  return ltv.lte(new LoanDecimal(bps).div(10_000));
}

/**
 * The BTC price at which the loan's LTV reaches `ltvBps`: debt ÷ (collateral × LTV), rounded UP to
 * 1e-8 USD (the loan is acted on no later than exact arithmetic would). With `ltvBps` the
 * liquidation LTV this is the liquidation price. Null without collateral.
 */
export function priceAtLtv(debtMinor: bigint, collateralMinor: bigint, ltvBps: number): Decimal | null {
  if (collateralMinor === 0n) return null;
  return new LoanDecimal(debtMinor.toString())
    .mul(100)
    .mul(10_000)
    .div(new LoanDecimal(collateralMinor.toString()).mul(ltvBps))
    .toDecimalPlaces(PRICE_DECIMALS, Decimal.ROUND_CEIL);
}

/** A price as wire text: at most 8 decimals, trailing zeros dropped, at least 2 decimals. */
export function priceText(price: Decimal): string {
  const text = price.toDecimalPlaces(PRICE_DECIMALS, Decimal.ROUND_HALF_EVEN).toFixed();
  const decimals = text.includes('.') ? text.split('.')[1]!.length : 0;
  return decimals >= 2 ? text : price.toFixed(2);
}

/**
 * The most principal `collateralMinor` allows at `ltvBps` for a term: principal + interest ≤
 * LTV × value, rounded down; interest is part of the debt at borrow.
 */
export function maxPrincipalFor(
  collateralMinor: bigint,
  price: Decimal,
  ltvBps: number,
  annualRateBps: number,
  termDays: number,
): bigint {
  const limit = collateralValue(collateralMinor, price).mul(ltvBps).div(10_000);
  // principal × (1 + r) ≤ limit, r = APR × days ÷ 365.
  const factor = new LoanDecimal(1).plus(new LoanDecimal(annualRateBps).mul(termDays).div(10_000).div(365));
  let principal = floorBig(limit.div(factor));
  while (
    principal > 0n &&
    new LoanDecimal((principal + termInterest(principal, annualRateBps, termDays)).toString()).gt(limit)
  )
    principal -= 1n;
  return principal;
}

/** The least collateral (satoshi, rounded up) that keeps `debtMinor` at most `ltvBps` at `price`. */
export function collateralFor(debtMinor: bigint, price: Decimal, ltvBps: number): bigint {
  return ceilBig(new LoanDecimal(debtMinor.toString()).mul(100).mul(10_000).div(price.mul(ltvBps)));
}

/** Satoshi to sell (rounded up, taken from the user) for `amountMinor` of the loan coin at `price`. */
export function satoshiFor(amountMinor: bigint, price: Decimal): bigint {
  return ceilBig(new LoanDecimal(amountMinor.toString()).mul(100).div(price));
}

/** Proceeds (loan-coin micro units, rounded down) of selling `collateralMinor` satoshi at `price`. */
export function proceedsOf(collateralMinor: bigint, price: Decimal): bigint {
  return floorBig(collateralValue(collateralMinor, price));
}

// ---------------------------------------------------------------- debt

/** The parts of a loan's debt. */
export interface DebtParts {
  outstandingPrincipalMinor: bigint;
  interestMinor: bigint;
  interestPaidMinor: bigint;
  overdueInterestMinor: bigint;
  overdueInterestPaidMinor: bigint;
}

/** Debt = outstanding principal + unpaid term interest + unpaid overdue interest. */
export function debtOf(loan: DebtParts): bigint {
  return (
    loan.outstandingPrincipalMinor +
    (loan.interestMinor - loan.interestPaidMinor) +
    (loan.overdueInterestMinor - loan.overdueInterestPaidMinor)
  );
}

/** How an amount pays a loan: interest first, then overdue interest, then principal (with its early fee). */
export interface PaymentSplit {
  interestMinor: bigint;
  overdueInterestMinor: bigint;
  principalMinor: bigint;
  feeMinor: bigint;
  /** interest + overdue interest + principal + fee: what is actually taken (≤ the amount offered). */
  totalMinor: bigint;
  /** Whether it clears the whole debt. */
  isFull: boolean;
}

/**
 * Split a repayment of at most `amountMinor` (undefined: the whole debt) over a loan: partial
 * repayments pay interest first, then principal. With `isEarly` (before the repayment
 * date) the principal part carries the early-repayment charge `earlyFeeBps` of it, rounded up;
 * the principal is then the
 * largest `p` with p + fee(p) within what is left, so `totalMinor` may be a few micro units under
 * the amount offered.
 */
export function splitPayment(
  loan: DebtParts,
  amountMinor: bigint | undefined,
  isEarly: boolean,
  earlyFeeBps: number,
): PaymentSplit {
  const unpaidInterest = loan.interestMinor - loan.interestPaidMinor;
  const unpaidOverdue = loan.overdueInterestMinor - loan.overdueInterestPaidMinor;
  const outstanding = loan.outstandingPrincipalMinor;
  const fullFee = isEarly ? feeOf(outstanding, earlyFeeBps) : 0n;
  const fullTotal = unpaidInterest + unpaidOverdue + outstanding + fullFee;
  if (amountMinor === undefined || amountMinor >= fullTotal)
    return {
      interestMinor: unpaidInterest,
      overdueInterestMinor: unpaidOverdue,
      principalMinor: outstanding,
      feeMinor: fullFee,
      totalMinor: fullTotal,
      isFull: true,
    };
  let rest = amountMinor;
  const interest = rest < unpaidInterest ? rest : unpaidInterest;
  rest -= interest;
  const overdue = rest < unpaidOverdue ? rest : unpaidOverdue;
  rest -= overdue;
  let principal: bigint;
  let fee = 0n;
  if (isEarly && earlyFeeBps > 0) {
    principal = (rest * BPS) / (BPS + BigInt(earlyFeeBps));
    if (principal > outstanding) principal = outstanding;
    while (principal > 0n && principal + feeOf(principal, earlyFeeBps) > rest) principal -= 1n;
    fee = feeOf(principal, earlyFeeBps);
  } else principal = rest < outstanding ? rest : outstanding;
  return {
    interestMinor: interest,
    overdueInterestMinor: overdue,
    principalMinor: principal,
    feeMinor: fee,
    totalMinor: interest + overdue + principal + fee,
    isFull: false,
  };
}

// ---------------------------------------------------------------- liquidation

/** The outcome of liquidating a loan at one price. */
export interface LiquidationPlan {
  kind: 'PARTIAL' | 'FULL';
  /** Satoshi sold (fee included in their value). */
  collateralSoldMinor: bigint;
  /** Proceeds of the sale, micro units (rounded down). */
  proceedsMinor: bigint;
  /** Liquidation fee, micro units (rounded up): part of the proceeds, only what is left after the debt. */
  feeMinor: bigint;
  /** proceeds − fee: what repays the debt (interest first). */
  debtRepaidMinor: bigint;
  /** Satoshi returned to the wallet (full liquidation only). */
  collateralReturnedMinor: bigint;
  /**
   * Debt the sale could not cover (full liquidation): its principal part is the platform's loss, its
   * interest part is written off (never booked as income).
   */
  shortfallMinor: bigint;
}

/**
 * Liquidation at `price`. Partial first: sell just enough collateral
 * S (value) that (debt − S × (1 − fee)) ÷ (value − S) = target LTV, i.e. S = (debt − T × value) ÷
 * (1 − fee − T), rounded up to the satoshi (so LTV after ≤ T); the loan stays open. When that would
 * take all the collateral (value × (1 − fee) < debt … up to the target), or `isFullOnly` (overdue),
 * liquidate fully: sell what covers the debt plus fee (rounded up), return the rest; when even all of
 * it does not cover the debt, the shortfall is the platform's (never a negative user balance).
 */
export function planLiquidation(input: {
  debtMinor: bigint;
  collateralMinor: bigint;
  price: Decimal;
  targetLtvBps: number;
  feeBps: number;
  isFullOnly: boolean;
}): LiquidationPlan {
  const { debtMinor, collateralMinor, price, targetLtvBps, feeBps } = input;
  const fee = new LoanDecimal(feeBps).div(10_000);
  const target = new LoanDecimal(targetLtvBps).div(10_000);
  const sell = (satoshi: bigint) => {
    const proceedsMinor = proceedsOf(satoshi, price);
    const feeMinor = feeOf(proceedsMinor, feeBps);
    return { proceedsMinor, feeMinor, repaid: proceedsMinor - feeMinor };
  };
  if (!input.isFullOnly) {
    const value = collateralValue(collateralMinor, price);
    const needed = new LoanDecimal(debtMinor.toString()).minus(target.mul(value));
    const denominator = new LoanDecimal(1).minus(fee).minus(target);
    if (needed.gt(0) && denominator.gt(0)) {
      let satoshi = ceilBig(needed.div(denominator).mul(100).div(price));
      for (let step = 0; step < 8 && satoshi < collateralMinor; step += 1) {
        const { proceedsMinor, feeMinor, repaid } = sell(satoshi);
        const debtAfter = debtMinor - repaid;
        if (repaid < debtMinor && isLtvWithin(ltvOf(debtAfter, collateralMinor - satoshi, price), targetLtvBps))
          return {
            kind: 'PARTIAL',
            collateralSoldMinor: satoshi,
            proceedsMinor,
            feeMinor,
            debtRepaidMinor: repaid,
            collateralReturnedMinor: 0n,
            shortfallMinor: 0n,
          };
        satoshi += 1n;
      }
    }
  }
  // Full: the satoshi whose proceeds net of fee cover the debt, or all of them.
  let satoshi = ceilBig(new LoanDecimal(debtMinor.toString()).div(new LoanDecimal(1).minus(fee)).mul(100).div(price));
  while (satoshi < collateralMinor && sell(satoshi).repaid < debtMinor) satoshi += 1n;
  if (satoshi > collateralMinor) satoshi = collateralMinor;
  const { proceedsMinor } = sell(satoshi);
  // The proceeds pay the debt before the fee (docs/decisions/0006-shortfall-income.md): when the sale
  // does not cover the debt plus the fee, the fee is what is left after the debt (nothing on a
  // shortfall). Rounding left over when the sale covers the debt (under one satoshi's worth) stays
  // with the fee.
  const debtRepaidMinor = proceedsMinor < debtMinor ? proceedsMinor : debtMinor;
  return {
    kind: 'FULL',
    collateralSoldMinor: satoshi,
    proceedsMinor,
    feeMinor: proceedsMinor - debtRepaidMinor,
    debtRepaidMinor,
    collateralReturnedMinor: collateralMinor - satoshi,
    shortfallMinor: debtMinor - debtRepaidMinor,
  };
}

/**
 * Split `amountMinor` repaid by a sale over the debt, interest first (no early fee: used by the
 * liquidation engine and by overdue liquidation).
 */
export function splitRepaid(loan: DebtParts, amountMinor: bigint): PaymentSplit {
  return splitPayment(loan, amountMinor, false, 0);
}

/**
 * Split the proceeds of a full liquidation that do NOT cover the debt (a shortfall) over the loan:
 * principal first, then term interest, then overdue interest (docs/decisions/0006-shortfall-income.md:
 * income is only what was collected; the platform's loss account pays back principal only, and
 * the interest left unpaid is written off, not booked). No fee: the proceeds are all debt.
 */
export function splitShortfall(loan: DebtParts, amountMinor: bigint): PaymentSplit {
  const min = (a: bigint, b: bigint) => (a < b ? a : b);
  let rest = amountMinor;
  const principalMinor = min(rest, loan.outstandingPrincipalMinor);
  rest -= principalMinor;
  const interestMinor = min(rest, loan.interestMinor - loan.interestPaidMinor);
  rest -= interestMinor;
  const overdueInterestMinor = min(rest, loan.overdueInterestMinor - loan.overdueInterestPaidMinor);
  const totalMinor = principalMinor + interestMinor + overdueInterestMinor;
  return {
    principalMinor,
    interestMinor,
    overdueInterestMinor,
    feeMinor: 0n,
    totalMinor,
    isFull: totalMinor === debtOf(loan),
  };
}

/**
 * A Hong Kong wall-clock minute of an instant, `YYYY-MM-DD HH:mm` (Hong Kong keeps UTC+8 all year;
 * the cure deadline of a margin call is written in it).
 */
export function hongKongMinuteText(instant: Date): string {
  return dayjs.utc(instant).add(8, 'hour').format('YYYY-MM-DD HH:mm');
}
