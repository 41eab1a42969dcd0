import { describe, expect, it } from 'vitest';
import { LOAN_STATUSES } from '@meridian/contracts/loans';
import { loanStatusColour, loanStatusLabelKey } from './loan-status.ts';

/** The loan status codes 0–9 map to their display labels and colours. */
describe('loan status', () => {
  it('gives each code its display label and colour', () => {
    expect(LOAN_STATUSES.map(loanStatusLabelKey)).toEqual([
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
