import { LOAN_STATUS, type LoanStatus } from '@meridian/contracts/loans';
import type Decimal from 'decimal.js';
import { eq } from 'drizzle-orm';
import type { Tx } from '../../platform/db/client.ts';
import { postEntry } from '../ledger/ledger.service.ts';
import { transfer } from '../ledger/ledger.types.ts';
import {
  collateralAccount,
  liquidationPriceOf,
  type LoanRow,
  type LoansDeps,
  ltvText,
  type SettingsRow,
  transition,
  walletBtc,
} from './loans.internal.ts';
import { overdueMessage } from './loans.messages.ts';
import { daysBetween, debtOf, isOpenLoan, LoanDecimal, ltvOf, overdueInterest, priceText } from './loans.rules.ts';
import { loanAdjustments, loans } from './loans.tables.ts';

/**
 * Changes the engine and the service make to one loan row: overdue interest (previewed, or
 * accrued on a locked row), the cure of a margin call, and collateral added or removed.
 */
export function createLoanPositions(deps: LoansDeps) {
  /** The loan with overdue interest accrued up to `today` and status 4 when past due (no database). */
  function previewOverdue(loan: LoanRow, settings: SettingsRow, today: string): LoanRow {
    if (!isOpenLoan(loan.status) || today <= loan.repaymentDate) return loan;
    const days = Math.min(settings.overdueGraceDays, daysBetween(loan.repaymentDate, today));
    const newDays = days - loan.overdueDays;
    const added =
      newDays > 0
        ? overdueInterest(loan.outstandingPrincipalMinor, loan.annualRateBps, settings.overdueRateMultiplier, newDays)
        : 0n;
    return {
      ...loan,
      status: LOAN_STATUS.OVERDUE,
      overdueDays: Math.max(days, loan.overdueDays),
      overdueInterestMinor: loan.overdueInterestMinor + added,
    };
  }

  /**
   * Accrue overdue interest on a LOCKED loan row up to Hong Kong day `today` (3 × the daily
   * rate on the outstanding principal per natural day, up to the grace of 3 days) and move it 3 → 4
   * after its repayment date; the liquidation price is rewritten. Returns the row as stored.
   */
  async function accrueOverdue(tx: Tx, loan: LoanRow, settings: SettingsRow, today: string): Promise<LoanRow> {
    const next = previewOverdue(loan, settings, today);
    if (next === loan) return loan;
    const status =
      next.status === loan.status ? (loan.status as LoanStatus) : transition(loan.status, LOAN_STATUS.OVERDUE);
    const [updated] = await tx
      .update(loans)
      .set({
        status,
        overdueDays: next.overdueDays,
        overdueInterestMinor: next.overdueInterestMinor,
        liquidationPrice: liquidationPriceOf(debtOf(next), next.collateralMinor, settings, true),
        updatedAt: deps.now(),
      })
      .where(eq(loans.id, loan.id))
      .returning();
    if (loan.status !== LOAN_STATUS.OVERDUE)
      await deps.notifyMany(
        [
          {
            userId: loan.userId,
            category: 'LOAN',
            ...overdueMessage,
            params: { orderId: String(loan.id), repaymentDate: loan.repaymentDate, grace: settings.overdueGraceDays },
            link: '/my/order/loan/history',
          },
        ],
        tx,
      );
    return updated!;
  }

  /**
   * A cure (docs/decisions/0005-margin-call-before-liquidation.md): after the customer (or their
   * protection rule) added collateral or repaid, an LTV at `price` under the margin-call level
   * clears the margin call, its deadline and the alert levels at and above it, so a later crossing
   * is announced again with a new cure window. No price (an addition needs none): nothing changes
   * here; the engine clears the margin call once the LTV is 2 points under the level.
   */
  function curePatch(
    loan: Pick<LoanRow, 'marginCallAt' | 'alertsFired'>,
    debtAfterMinor: bigint,
    collateralAfterMinor: bigint,
    price: Decimal | null,
    settings: SettingsRow,
  ): { marginCallAt?: null; alertsFired?: number } {
    if (loan.marginCallAt === null || price === null) return {};
    if (ltvOf(debtAfterMinor, collateralAfterMinor, price).gte(new LoanDecimal(settings.marginCallLtvBps).div(10_000)))
      return {};
    let mask = loan.alertsFired;
    settings.alertLevelsBps.forEach((level, index) => {
      if (level >= settings.marginCallLtvBps) mask &= ~(1 << index);
    });
    return { marginCallAt: null, alertsFired: mask };
  }

  /**
   * Move collateral on a LOCKED open loan (user or protection rule): ADD wallet → collateral, REMOVE
   * collateral → wallet (the caller checked the LTV). One entry (kind LOAN_COLLATERAL) and the record.
   */
  async function applyAdjustment(
    tx: Tx,
    loan: LoanRow,
    settings: SettingsRow,
    input: {
      direction: 'ADD' | 'REMOVE';
      amountMinor: bigint;
      origin: 'USER' | 'PROTECTION';
      price: Decimal | null;
      idempotencyKey: string;
      requestHash: string;
    },
  ) {
    const userId = loan.userId;
    const collateralAfter =
      input.direction === 'ADD' ? loan.collateralMinor + input.amountMinor : loan.collateralMinor - input.amountMinor;
    const { entry } = await postEntry(tx, {
      kind: 'LOAN_COLLATERAL',
      reference: `loan:${loan.id}`,
      idempotencyKey: `loan:${loan.id}:adjust:${input.origin}:${input.idempotencyKey}`,
      postings:
        input.direction === 'ADD'
          ? transfer(walletBtc(userId), collateralAccount(userId), input.amountMinor)
          : transfer(collateralAccount(userId), walletBtc(userId), input.amountMinor),
    });
    const debt = debtOf(loan);
    await tx
      .update(loans)
      .set({
        collateralMinor: collateralAfter,
        liquidationPrice: liquidationPriceOf(debt, collateralAfter, settings, true),
        ...curePatch(loan, debt, collateralAfter, input.price, settings),
        updatedAt: deps.now(),
      })
      .where(eq(loans.id, loan.id));
    const [record] = await tx
      .insert(loanAdjustments)
      .values({
        loanId: loan.id,
        userId,
        direction: input.direction,
        origin: input.origin,
        amountMinor: input.amountMinor,
        collateralAfterMinor: collateralAfter,
        ltvBefore: input.price ? ltvText(debt, loan.collateralMinor, input.price) : null,
        ltvAfter: input.price ? ltvText(debt, collateralAfter, input.price) : null,
        price: input.price ? priceText(input.price) : null,
        entryId: entry.id,
        idempotencyKey: input.idempotencyKey,
        requestHash: input.requestHash,
      })
      .returning();
    return record!;
  }

  return { previewOverdue, accrueOverdue, curePatch, applyAdjustment };
}
