import { describe, expect, it } from 'vitest';
import { qualifyAmountOf, qualifyBodyOf } from './qualified-form.ts';

describe('qualified-investor form', () => {
  it('sends an individual portfolio by default, trimmed', () => {
    expect(qualifyBodyOf({ portfolioHkd: ' 8000000 ', totalAssetsHkd: '1', isDeclared: true })).toEqual({
      type: 'individual',
      portfolioHkd: '8000000',
      isDeclared: true,
    });
  });

  it("sends a corporation's total assets", () => {
    expect(qualifyBodyOf({ type: 'corporation', portfolioHkd: '1', isDeclared: true })).toEqual({
      type: 'corporation',
      totalAssetsHkd: '',
      isDeclared: true,
    });
  });

  it('shows the amount of the type chosen', () => {
    expect(qualifyAmountOf({ type: 'corporation', totalAssetsHkd: '4', portfolioHkd: '8' })).toBe('4');
    expect(qualifyAmountOf({ totalAssetsHkd: '4', portfolioHkd: '8' })).toBe('8');
  });
});
