/**
 * Loan order status codes of spec §4: 0 init, 1 fail, 2 processing, 3 repayable, 4 overdue, 5 price
 * liquidation, 6 early repaid, 7 repaid, 8 overdue repaid, 9 overdue liquidation.
 */
export const LOAN_STATUS_CODES = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] as const;
export type LoanStatusCode = (typeof LOAN_STATUS_CODES)[number];

/** The current orders of spec §4 (still owing, collateral still held): 0, 2, 3, 4. */
export const CURRENT_LOAN_STATUSES: readonly LoanStatusCode[] = [0, 2, 3, 4];

/** Whether a loan is a current order (spec §4). */
export function isCurrentLoan(status: number): boolean {
  return (CURRENT_LOAN_STATUSES as readonly number[]).includes(status);
}

/**
 * The display label of a status (spec §4 "Display labels: REPAID, EARLY_REPAID, OVERDUE_REPAID,
 * Overdue, Forced Liquidation, Ongoing"), as a key of the `loans` namespace's `status` object:
 * 0, 2 and 3 are Ongoing; 5 and 9 Forced liquidation; 1 (the spec names no label) Failed.
 */
export function loanStatusLabelKey(status: number): string {
  switch (status) {
    case 0:
    case 2:
    case 3:
      return 'status.ongoing';
    case 1:
      return 'status.failed';
    case 4:
      return 'status.overdue';
    case 5:
    case 9:
      return 'status.liquidated';
    case 6:
      return 'status.earlyRepaid';
    case 7:
      return 'status.repaid';
    case 8:
      return 'status.overdueRepaid';
    default:
      return 'status.unknown';
  }
}

/** The tag colour of a status: ongoing blue, overdue orange, liquidated or failed red, repaid green. */
export function loanStatusColour(status: number): string {
  if (status === 4) return 'warning';
  if (status === 1 || status === 5 || status === 9) return 'error';
  if (status === 6 || status === 7 || status === 8) return 'success';
  return 'processing';
}
