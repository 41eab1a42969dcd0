import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { toFundFilters } from './fund-filters.ts';

describe('toFundFilters', () => {
  it('reads "all" (empty) as no filter and keeps the page size of 10', () => {
    expect(toFundFilters({ type: '', action: '', coin: '' })).toEqual({
      pageSize: 10,
      type: undefined,
      action: undefined,
      coin: undefined,
      createTime: undefined,
    });
  });

  it('passes the chosen type, action and coin, and a date range as whole local days', () => {
    const from = dayjs('2026-11-01T15:00:00');
    const to = dayjs('2026-11-03T08:00:00');
    const filters = toFundFilters({ type: 'FIXED', action: 'MATURITY', coin: 'USDC', createTime: [from, to] });
    expect(filters).toMatchObject({ type: 'FIXED', action: 'MATURITY', coin: 'USDC' });
    expect(filters.createTime).toEqual([from.startOf('day').toISOString(), to.endOf('day').toISOString()]);
  });
});
