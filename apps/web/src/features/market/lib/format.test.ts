import { describe, expect, it } from 'vitest';
import { changeDirection, formatChangePercent, sparklinePoints } from './format.ts';

describe('market table formatting', () => {
  it('signs and colours the 24 h change', () => {
    expect(formatChangePercent('2.15')).toBe('+2.15%');
    expect(formatChangePercent('-50.00')).toBe('-50.00%');
    expect(formatChangePercent('0.00')).toBe('0.00%');
    expect(['2.15', '-0.01', '0.00'].map(changeDirection)).toEqual(['up', 'down', 'flat']);
  });

  it('draws the highest price at the top and the oldest at the left', () => {
    expect(sparklinePoints([1, 3, 2], 100, 24, 2)).toBe('0.0,22.0 50.0,2.0 100.0,12.0');
    expect(sparklinePoints([5, 5], 100, 24)).toBe('0.0,12.0 100.0,12.0');
    expect(sparklinePoints([7], 100, 24)).toBe('0.0,12.0 100.0,12.0');
  });
});
