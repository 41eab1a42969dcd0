import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { groupDecimal, monthRange, pickedRange } from './range.ts';

describe('statement ranges', () => {
  it('covers a whole past month, and a running month up to today', () => {
    expect(monthRange(dayjs('2026-02-10'), '2026-11-26')).toEqual({ from: '2026-02-01', to: '2026-02-28' });
    expect(monthRange(dayjs('2026-11-03'), '2026-11-26')).toEqual({ from: '2026-11-01', to: '2026-11-26' });
    expect(pickedRange(dayjs('2026-01-05'), dayjs('2026-03-07'))).toEqual({ from: '2026-01-05', to: '2026-03-07' });
  });

  it('groups thousands and keeps the sign and every decimal', () => {
    expect(groupDecimal('-1234567.500000')).toBe('-1,234,567.500000');
    expect(groupDecimal('0.00000001')).toBe('0.00000001');
    expect(groupDecimal('999')).toBe('999');
  });
});
