import { describe, expect, it } from 'vitest';
import { ltvZoneOf, pctForDrawing } from './ltv.ts';

const LEVELS = { initialPct: '70', marginCallPct: '80', liquidationPct: '90' };

/** The gauge's zone follows the LTV levels of docs/loans.md exactly at their boundaries. */
describe('ltvZoneOf', () => {
  it('places the boundaries exactly', () => {
    expect(ltvZoneOf('70.00', LEVELS)).toBe('safe');
    expect(ltvZoneOf('70.01', LEVELS)).toBe('watch');
    expect(ltvZoneOf('80', LEVELS)).toBe('marginCall');
    expect(ltvZoneOf('89.99', LEVELS)).toBe('marginCall');
    expect(ltvZoneOf('90.00', LEVELS)).toBe('liquidation');
    expect(ltvZoneOf('not a number', LEVELS)).toBe('safe');
  });

  it('draws only finite, non-negative positions', () => {
    expect(pctForDrawing('45.5')).toBe(45.5);
    expect(pctForDrawing('x')).toBe(0);
    expect(pctForDrawing('-3')).toBe(0);
  });
});
