import type { LoanCoin } from '@meridian/contracts/loans';
import type { Dayjs } from 'dayjs';
import type { LoanHistoryFilters } from '../api/loan-keys.ts';

/** Page size of the histories. */
const PAGE_SIZE = 10;

/** The filter form's values (history filter: coin, createTime). */
export interface LoanFilterValues {
  loanCoin?: LoanCoin | '';
  createTime?: [Dayjs, Dayjs];
}

/** The form's values as the list's filters: whole days in local time, "all" (empty) as no filter. */
export function toLoanFilters(values: LoanFilterValues): LoanHistoryFilters {
  return {
    pageSize: PAGE_SIZE,
    loanCoin: values.loanCoin || undefined,
    createTime: values.createTime
      ? [values.createTime[0].startOf('day').toISOString(), values.createTime[1].endOf('day').toISOString()]
      : undefined,
  };
}
