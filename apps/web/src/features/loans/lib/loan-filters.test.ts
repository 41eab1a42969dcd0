import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { toLoanFilters } from './loan-filters.ts';

/** The loan histories' filters: "all" sends no coin, a date range covers whole local days, pages of 10. */
describe('toLoanFilters', () => {
  it('sends nothing for "all"', () => {
    expect(toLoanFilters({ loanCoin: '' })).toEqual({ pageSize: 10, loanCoin: undefined, createTime: undefined });
  });

  it('covers whole days', () => {
    const from = dayjs('2026-11-01T15:00:00');
    const to = dayjs('2026-11-02T09:00:00');
    const filters = toLoanFilters({ loanCoin: 'USDT', createTime: [from, to] });
    expect(filters.loanCoin).toBe('USDT');
    expect(filters.createTime).toEqual([from.startOf('day').toISOString(), to.endOf('day').toISOString()]);
  });
});
