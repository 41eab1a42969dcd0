import { describe, expect, it } from 'vitest';
import { maskAccountNumber } from './mask.ts';

describe('maskAccountNumber', () => {
  it('keeps the IBAN country and check digits and the last 4', () => {
    expect(maskAccountNumber('GB82WEST12345698765432', true)).toBe('GB82 •••• 5432');
  });
  it('keeps only the last 4 of an account number', () => {
    expect(maskAccountNumber('004123456789001', false)).toBe('•••• 9001');
  });
  it('masks short numbers fully', () => {
    expect(maskAccountNumber('1234', false)).toBe('••••');
  });
});
