import { describe, expect, it } from 'vitest';
import { allGroupKeys, groupsContaining, initialOpenGroups } from './account-menu-items.ts';

/** Which side-menu groups open: the current route's, else the first; all with expand-all. */
describe('side menu groups', () => {
  it('finds the groups around a route, outermost first', () => {
    expect(groupsContaining('MainAccount')).toEqual(['group:account']);
    expect(groupsContaining('SwapHistory')).toEqual(['group:order']);
    expect(groupsContaining('LoanRepayRecord')).toEqual(['group:order', 'group:loan']);
    expect(groupsContaining('LoanHistory')).toEqual(['group:order', 'group:loan']);
    expect(groupsContaining('AccountStatement')).toEqual([]);
  });

  it('opens the group of the innermost matched route that has one', () => {
    expect(initialOpenGroups(['My', 'Order', 'WalletHistory', 'DepositHistory'])).toEqual(['group:order']);
    expect(initialOpenGroups(['My', 'Security'])).toEqual(['group:settings']);
  });

  it('opens the first group by default, and every group with expand-all', () => {
    expect(initialOpenGroups(['Messages'])).toEqual(['group:account']);
    expect(initialOpenGroups(['Messages'], true)).toEqual(allGroupKeys());
    expect(allGroupKeys()).toEqual(['group:account', 'group:order', 'group:loan', 'group:settings']);
  });
});
