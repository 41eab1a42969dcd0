import { describe, expect, it } from 'vitest';
import { addUsd, isPositive, percent, usdOfE8 } from './format.ts';

describe('fund formatting', () => {
  it('adds USD texts exactly', () => {
    expect(addUsd('0.10', '0.20')).toBe('0.30');
    expect(addUsd('1000.05', '2.95', 'x')).toBe('1003.00');
  });

  it('reads whether an amount is above zero and shows rates with a percent sign', () => {
    expect(isPositive('0.00')).toBe(false);
    expect(isPositive('0.01')).toBe(true);
    expect(percent('3.65')).toBe('3.65%');
  });
});

describe('usdOfE8', () => {
  it('shows the digits below the cent without trailing zeros', () => {
    expect(usdOfE8(990_000n)).toBe('0.0099');
    expect(usdOfE8(123_456_700n)).toBe('1.234567');
    expect(usdOfE8(100_000_000n)).toBe('1.00');
    expect(usdOfE8(120_547_945_200n)).toBe('1,205.479452');
  });
});
