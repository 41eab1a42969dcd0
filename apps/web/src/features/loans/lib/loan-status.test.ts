import { describe, expect, it } from 'vitest';
import { isCurrentLoan, LOAN_STATUS_CODES, loanStatusColour, loanStatusLabelKey } from './loan-status.ts';

/** The spec §4 status codes map to its display labels, and only 0, 2, 3, 4 are current orders. */
describe('loan status', () => {
  it('counts 0, 2, 3 and 4 as current orders', () => {
    expect(LOAN_STATUS_CODES.filter(isCurrentLoan)).toEqual([0, 2, 3, 4]);
  });

  it('gives each code its display label and colour', () => {
    expect(LOAN_STATUS_CODES.map(loanStatusLabelKey)).toEqual([
      'status.ongoing',
      'status.failed',
      'status.ongoing',
      'status.ongoing',
      'status.overdue',
      'status.liquidated',
      'status.earlyRepaid',
      'status.repaid',
      'status.overdueRepaid',
      'status.liquidated',
    ]);
    expect(loanStatusColour(4)).toBe('warning');
    expect(loanStatusColour(9)).toBe('error');
    expect(loanStatusColour(6)).toBe('success');
  });
});
