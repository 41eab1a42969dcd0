import type { LoanCalc } from '@meridian/contracts/loans';
import { describe, expect, it } from 'vitest';
import { calcQueryOf, type CalcInputs, isLtvAboveInitial, shownAmount } from './calc-fields.ts';

const base: CalcInputs = {
  loanCoin: 'USDT',
  termDays: 30,
  texts: { collateral: '', principal: '' },
  typed: { collateral: false, principal: false },
};

const ANSWER = {
  collateralAmount: '0.07142858',
  principal: '1000.000000',
  maxPrincipal: null,
  ltvPct: '70.00',
} as LoanCalc;

/** The calculator asks with what was typed (collateral ↔ amount) and fills the other field from the answer. */
describe('calculator fields', () => {
  it('asks nothing until an amount is typed, and nothing for a refused amount', () => {
    expect(calcQueryOf(base)).toBeNull();
    expect(
      calcQueryOf({
        ...base,
        texts: { collateral: '0.123456789', principal: '' },
        typed: { collateral: true, principal: false },
      }),
    ).toBeNull();
  });

  it('asks with the typed field alone, or both', () => {
    const principalOnly = {
      ...base,
      texts: { collateral: '', principal: '1000' },
      typed: { collateral: false, principal: true },
    };
    expect(calcQueryOf(principalOnly)).toEqual({ loanCoin: 'USDT', termDays: 30, principal: '1000' });
    const both = {
      ...base,
      texts: { collateral: '0.2', principal: '1000' },
      typed: { collateral: true, principal: true },
    };
    expect(calcQueryOf(both)).toEqual({ loanCoin: 'USDT', termDays: 30, collateralAmount: '0.2', principal: '1000' });
  });

  it('fills the untyped field from the answer', () => {
    const principalOnly = {
      ...base,
      texts: { collateral: '', principal: '1000' },
      typed: { collateral: false, principal: true },
    };
    expect(shownAmount('collateral', principalOnly, ANSWER)).toBe('0.07142858');
    expect(shownAmount('principal', principalOnly, ANSWER)).toBe('1000');
    expect(shownAmount('collateral', principalOnly, null)).toBe('');
    const collateralOnly = {
      ...base,
      texts: { collateral: '0.2', principal: '' },
      typed: { collateral: true, principal: false },
    };
    expect(shownAmount('principal', collateralOnly, { ...ANSWER, maxPrincipal: '2527.913176' })).toBe('2527.913176');
  });

  it('flags an LTV above the initial level exactly', () => {
    expect(isLtvAboveInitial(ANSWER, '70')).toBe(false);
    expect(isLtvAboveInitial({ ...ANSWER, ltvPct: '70.01' }, '70')).toBe(true);
    expect(isLtvAboveInitial(null, '70')).toBe(false);
  });
});
