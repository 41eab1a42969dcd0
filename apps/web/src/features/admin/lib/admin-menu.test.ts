import { backOfficeAccessEndpoints } from '@meridian/contracts/back-office';
import { mayCall } from '@meridian/contracts/operators';
import { describe, expect, it } from 'vitest';
import { ADMIN_MENU, menuItemsFor, menuKeyOf } from './admin-menu.ts';

describe('menuItemsFor', () => {
  it('shows an admin every page', () => {
    expect(menuItemsFor('admin').map((item) => item.key)).toEqual(ADMIN_MENU.map((item) => item.key));
  });

  it('shows compliance the review pages and the audit log, not operators, withdrawals or settings edits', () => {
    expect(menuItemsFor('compliance').map((item) => item.key)).toEqual([
      'dashboard',
      'users',
      'kyc',
      'deposits',
      'trusts',
      'support',
      'proApplications',
      'screening',
      'adjustments',
      'broadcasts',
      'banners',
      'audit',
      'settings',
    ]);
  });

  it('shows finance withdrawals, wires and adjustments but not the verification queue', () => {
    expect(menuItemsFor('finance').map((item) => item.key)).toEqual([
      'dashboard',
      'users',
      'deposits',
      'withdrawals',
      'wires',
      'trusts',
      'cards',
      'chain',
      'adjustments',
      'settings',
    ]);
  });

  it('shows support no operators page and no audit log', () => {
    const keys = menuItemsFor('support').map((item) => item.key);
    expect(keys).not.toContain('operators');
    expect(keys).not.toContain('audit');
    expect(keys).not.toContain('wires');
    expect(keys).toContain('kyc');
    expect(keys).toContain('deposits');
    expect(keys).toContain('broadcasts');
    expect(keys).toContain('banners');
    expect(keys).toContain('cards');
    expect(keys).toContain('support');
    expect(keys).toContain('proApplications');
  });

  it('decides with the same descriptor the page calls', () => {
    const operators = ADMIN_MENU.find((item) => item.key === 'operators');
    expect(operators?.endpoint).toBe(backOfficeAccessEndpoints.listOperators);
    for (const item of menuItemsFor('support')) expect(mayCall('support', item.endpoint)).toBe(true);
  });
});

describe('menuKeyOf', () => {
  it('selects the page of a nested address, and the dashboard only at /admin', () => {
    expect(menuKeyOf('/admin')).toBe('dashboard');
    expect(menuKeyOf('/admin/users/abc')).toBe('users');
    expect(menuKeyOf('/admin/kyc/abc')).toBe('kyc');
    expect(menuKeyOf('/admin/audit')).toBe('audit');
    expect(menuKeyOf('/admin/deposits')).toBe('deposits');
    expect(menuKeyOf('/admin/wires')).toBe('wires');
    expect(menuKeyOf('/admin/cards')).toBe('cards');
    expect(menuKeyOf('/admin/trusts')).toBe('trusts');
    expect(menuKeyOf('/admin/broadcasts')).toBe('broadcasts');
    expect(menuKeyOf('/admin/banners')).toBe('banners');
    expect(menuKeyOf('/admin/support')).toBe('support');
  });
});
