/**
 * The display label of a status (display labels REPAID, EARLY_REPAID, OVERDUE_REPAID,
 * Overdue, Forced Liquidation, Ongoing), as a key of the `loans` namespace's `status` object:
 * 0, 2 and 3 are Ongoing; 5 and 9 Forced liquidation; 1 (no label of its own) Failed.
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
