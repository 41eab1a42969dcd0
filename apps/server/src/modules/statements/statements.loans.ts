import { type AssetCode, toDecimalString } from '@meridian/contracts/money';
import type { StatementLoan, StatementLoanMovement } from '@meridian/contracts/statements';
import type { StatementLoanEntry } from '../ledger/ledger.service.ts';

const MOVEMENT_KIND = {
  LOAN_BORROW: 'borrow',
  LOAN_REPAY: 'repay',
  LOAN_LIQUIDATION: 'liquidation',
} as const satisfies Record<StatementLoanEntry['kind'], StatementLoanMovement['kind']>;

interface LoanState {
  coin: AssetCode;
  principalMinor: bigint;
  chargedMinor: bigint;
  paidMinor: bigint;
}

/**
 * The statement's loan section (docs/statements.md "Loans") from the user's loan entries before the
 * end of the range, oldest first (`statementLoanEntries`), and each loan's term interest by reference
 * (the loans module's record; owed in full from the borrow). Per loan: principal outstanding = minus
 * the pool's postings; interest charged = the term interest at the borrow, plus what a payment pays
 * beyond it (overdue interest, owed as it is paid); interest owed = charged − paid (the pool's
 * interest account); fees paid = the entry's postings to the platform's fees in the loan coin. The
 * opening sums the entries before `fromAt`, the closing adds the range's movements, so one period's
 * closing is the next one's opening. Loans with no debt and no movement in the range are left out.
 */
export function loanSection(
  entries: readonly StatementLoanEntry[],
  termInterestMinorByReference: ReadonlyMap<string, bigint>,
  fromAt: Date,
): StatementLoan[] {
  const loans = new Map<
    string,
    { opening: LoanState | null; state: LoanState; movements: StatementLoanMovement[]; feesInRange: bigint }
  >();
  for (const entry of entries) {
    let loan = loans.get(entry.reference);
    if (!loan) {
      loan = {
        opening: null,
        state: { coin: entry.coin, principalMinor: 0n, chargedMinor: 0n, paidMinor: 0n },
        movements: [],
        feesInRange: 0n,
      };
      loans.set(entry.reference, loan);
    }
    const isInRange = entry.createdAt >= fromAt;
    if (isInRange && loan.opening === null) loan.opening = { ...loan.state };
    const term = termInterestMinorByReference.get(entry.reference) ?? 0n;
    const { state } = loan;
    const beyondTerm = (paid: bigint) => (paid > term ? paid - term : 0n);
    const chargedMinor =
      (entry.kind === 'LOAN_BORROW' ? term : 0n) +
      beyondTerm(state.paidMinor + entry.interestMinor) -
      beyondTerm(state.paidMinor);
    state.principalMinor -= entry.poolMinor;
    state.chargedMinor += chargedMinor;
    state.paidMinor += entry.interestMinor;
    if (isInRange)
      loan.movements.push({
        at: entry.createdAt.toISOString(),
        entryId: entry.entryId,
        kind: MOVEMENT_KIND[entry.kind],
        principal: toDecimalString(-entry.poolMinor, entry.coin),
        interestCharged: toDecimalString(chargedMinor, entry.coin),
        interestPaid: toDecimalString(entry.interestMinor, entry.coin),
        feePaid: toDecimalString(entry.feeMinor, entry.coin),
      });
    if (isInRange) loan.feesInRange += entry.feeMinor;
  }
  const section: StatementLoan[] = [];
  for (const [reference, loan] of loans) {
    const opening = loan.opening ?? loan.state;
    const owed = (s: LoanState) => s.chargedMinor - s.paidMinor;
    if (loan.movements.length === 0 && opening.principalMinor === 0n && owed(opening) === 0n) continue;
    const coin = loan.state.coin;
    const text = (minor: bigint) => toDecimalString(minor, coin);
    section.push({
      reference,
      coin,
      principalOpening: text(opening.principalMinor),
      principalClosing: text(loan.state.principalMinor),
      interestOwedOpening: text(owed(opening)),
      interestOwedClosing: text(owed(loan.state)),
      interestCharged: text(loan.state.chargedMinor - opening.chargedMinor),
      interestPaid: text(loan.state.paidMinor - opening.paidMinor),
      feesPaid: text(loan.feesInRange),
      movements: loan.movements,
    });
  }
  return section;
}
