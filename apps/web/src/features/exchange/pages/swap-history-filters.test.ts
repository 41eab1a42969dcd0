import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { toSwapFilters } from './swap-history-page.tsx';

describe('toSwapFilters (the history form → the list query)', () => {
  it('asks page 1 of 10 for all coins and any date when nothing is chosen', () => {
    expect(toSwapFilters({}, 1)).toEqual({ pageID: 1, pageSize: 10, coin: undefined, createTime: undefined });
  });

  it('sends an exchange coin, and "all" (empty) as no coin', () => {
    expect(toSwapFilters({ coin: 'BTC' }, 2)).toMatchObject({ pageID: 2, coin: 'BTC' });
    expect(toSwapFilters({ coin: '' }, 1).coin).toBeUndefined();
    expect(toSwapFilters({ coin: 'EUR' }, 1).coin).toBeUndefined();
  });

  it('widens the chosen dates to whole local days', () => {
    const filters = toSwapFilters({ createTime: [dayjs('2026-11-01T15:00:00'), dayjs('2026-11-03T09:00:00')] }, 1);
    expect(filters.createTime).toEqual([
      dayjs('2026-11-01T00:00:00').toISOString(),
      dayjs('2026-11-03T23:59:59.999').toISOString(),
    ]);
  });
});
