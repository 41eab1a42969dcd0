import { type LoanCoin, type LoanRepayType, type LoanStatus } from '@meridian/contracts/loans';
import { count, eq } from 'drizzle-orm';
import type { Tx } from '../../platform/db/client.ts';
import { DomainError, FieldError } from '../../platform/http/errors.ts';
import { postEntry } from '../ledger/ledger.service.ts';
import { platformAccount, type PostingInput, transfer } from '../ledger/ledger.types.ts';
import {
  assertOpen,
  COLLATERAL,
  coinText,
  collateralAccount,
  liquidationPriceOf,
  type LoanPrice,
  type LoanRow,
  mergePostings,
  paymentPostings,
  repaidStatusOn,
  type SettingsRow,
  transition,
  walletBtc,
  walletCoin,
} from './loans.internal.ts';
import { debtOf, isOpenLoan, type PaymentSplit, priceText, satoshiFor, splitPayment } from './loans.rules.ts';
import { loanRepayments, loans } from './loans.tables.ts';
import type { LoansContext } from './loans.context.ts';

/** What a repayment made now does (`planRepay`), ready to post (`applyRepayment`). */
export type RepayPlan = {
  split: PaymentSplit;
  collateralSoldMinor: bigint;
  collateralReleasedMinor: bigint;
  statusAfter: LoanStatus;
  debtAfterMinor: bigint;
  collateralAfterMinor: bigint;
  price: LoanPrice | null;
};

/**
 * Repayments, shared by the user's calls (`loans.orders.ts`) and protection rules
 * (`loans.protections.ts`): bring a locked loan up to date, plan a repayment, post it.
 */
export function createRepayments(deps: LoansContext) {
  const { engine } = deps;

  /** Accrue overdue interest up to `today` on a locked loan row (3 → 4 when past due); returns the row as updated. */
  async function bringUpToDate(tx: Tx, loan: LoanRow, settings: SettingsRow, today: string): Promise<LoanRow> {
    return engine.accrueOverdue(tx, loan, settings, today);
  }

  /**
   * What a repayment made now does: the split (interest first, then overdue
   * interest, then principal with the early charge before the repayment date), the BTC sold when
   * paid with collateral (rounded up at the current price), the collateral released on a full
   * repayment and the status after (6, 7 or 8).
   * `price` is fetched by the caller before any transaction (required for COLLATERAL).
   * @throws DomainError LOAN_NOT_REPAYABLE, LOAN_REPAY_TOO_MUCH, PRICE_UNAVAILABLE (collateral), INSUFFICIENT_BALANCE (collateral too small)
   */
  async function planRepay(
    loan: LoanRow,
    settings: SettingsRow,
    input: { repayType: LoanRepayType; amountMinor: bigint | undefined },
    today: string,
    price: LoanPrice | null,
  ): Promise<RepayPlan> {
    assertOpen(loan);
    const isEarly = today < loan.repaymentDate;
    const full = splitPayment(loan, undefined, isEarly, settings.earlyRepayFeeBps);
    if (input.amountMinor !== undefined && input.amountMinor > full.totalMinor)
      throw new DomainError('LOAN_REPAY_TOO_MUCH', {
        debt: coinText(full.totalMinor, loan.loanCoin),
        unit: loan.loanCoin,
      });
    const split = splitPayment(loan, input.amountMinor, isEarly, settings.earlyRepayFeeBps);
    if (split.totalMinor <= 0n) throw new FieldError('amount', 'validation.amountPositive');
    let collateralSoldMinor = 0n;
    if (input.repayType === 'COLLATERAL') {
      if (!price) throw new DomainError('PRICE_UNAVAILABLE');
      collateralSoldMinor = satoshiFor(split.totalMinor, price.priceUsd);
      if (collateralSoldMinor > loan.collateralMinor) throw new DomainError('INSUFFICIENT_BALANCE');
    }
    const collateralLeft = loan.collateralMinor - collateralSoldMinor;
    const afterStatus = split.isFull ? repaidStatusOn(today, loan.repaymentDate) : (loan.status as LoanStatus);
    return {
      split,
      collateralSoldMinor,
      collateralReleasedMinor: split.isFull ? collateralLeft : 0n,
      statusAfter: afterStatus,
      debtAfterMinor: debtOf(loan) - (split.totalMinor - split.feeMinor),
      collateralAfterMinor: split.isFull ? 0n : collateralLeft,
      price,
    };
  }

  /**
   * Post a planned repayment on a locked, up-to-date loan row and write its record (shared by the
   * user's repayments and protection rules).
   */
  async function applyRepayment(
    tx: Tx,
    loan: LoanRow,
    settings: SettingsRow,
    plan: RepayPlan,
    meta: { repayType: LoanRepayType; origin: 'USER' | 'PROTECTION'; idempotencyKey: string; requestHash: string },
  ) {
    const coin = loan.loanCoin as LoanCoin;
    const userId = loan.userId;
    const postings: PostingInput[] = [];
    if (meta.repayType === 'WALLET') postings.push(...paymentPostings(walletCoin(userId, coin), coin, plan.split));
    else {
      postings.push(
        ...transfer(
          collateralAccount(userId),
          platformAccount('PLATFORM_LOAN_LIQUIDATION', COLLATERAL),
          plan.collateralSoldMinor,
        ),
        ...paymentPostings(platformAccount('PLATFORM_LOAN_LIQUIDATION', coin), coin, plan.split),
      );
    }
    if (plan.collateralReleasedMinor > 0n)
      postings.push(...transfer(collateralAccount(userId), walletBtc(userId), plan.collateralReleasedMinor));
    const [{ n: sequence } = { n: 0 }] = await tx
      .select({ n: count() })
      .from(loanRepayments)
      .where(eq(loanRepayments.loanId, loan.id));
    const { entry } = await postEntry(tx, {
      kind: 'LOAN_REPAY',
      reference: `loan:${loan.id}`,
      idempotencyKey: `loan:${loan.id}:repay:${sequence + 1}`,
      postings: mergePostings(postings),
    });
    const now = deps.now();
    const split = plan.split;
    const status = split.isFull ? transition(loan.status, plan.statusAfter) : (loan.status as LoanStatus);
    const next = {
      outstandingPrincipalMinor: loan.outstandingPrincipalMinor - split.principalMinor,
      interestPaidMinor: loan.interestPaidMinor + split.interestMinor,
      overdueInterestPaidMinor: loan.overdueInterestPaidMinor + split.overdueInterestMinor,
      collateralMinor: loan.collateralMinor - plan.collateralSoldMinor - plan.collateralReleasedMinor,
    };
    await tx
      .update(loans)
      .set({
        ...next,
        status,
        feesPaidMinor: loan.feesPaidMinor + split.feeMinor,
        liquidationPrice: liquidationPriceOf(
          debtOf({ ...loan, ...next }),
          next.collateralMinor,
          settings,
          isOpenLoan(status),
        ),
        closedAt: isOpenLoan(status) ? null : now,
        ...(isOpenLoan(status)
          ? engine.curePatch(
              loan,
              debtOf({ ...loan, ...next }),
              next.collateralMinor,
              plan.price?.priceUsd ?? null,
              settings,
            )
          : { marginCallAt: null }),
        updatedAt: now,
      })
      .where(eq(loans.id, loan.id));
    const [record] = await tx
      .insert(loanRepayments)
      .values({
        loanId: loan.id,
        userId,
        loanCoin: coin,
        repayType: meta.repayType,
        origin: meta.origin,
        amountMinor: split.totalMinor,
        interestMinor: split.interestMinor,
        overdueInterestMinor: split.overdueInterestMinor,
        principalMinor: split.principalMinor,
        feeMinor: split.feeMinor,
        collateralSoldMinor: plan.collateralSoldMinor,
        collateralReleasedMinor: plan.collateralReleasedMinor,
        price: plan.price ? priceText(plan.price.priceUsd) : null,
        statusAfter: status,
        entryId: entry.id,
        idempotencyKey: meta.idempotencyKey,
        requestHash: meta.requestHash,
      })
      .returning();
    return record!;
  }

  return { bringUpToDate, planRepay, applyRepayment };
}
