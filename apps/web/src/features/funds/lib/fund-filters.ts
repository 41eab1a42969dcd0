import type { FundOrderAction, FundStablecoin, FundType } from '@meridian/contracts/funds';
import type { Dayjs } from 'dayjs';
import type { FundHistoryFilters } from '../api/fund-keys.ts';

/** Page size of the history. */
const PAGE_SIZE = 10;

export interface FundFilterValues {
  type?: FundType | '';
  action?: FundOrderAction | '';
  coin?: FundStablecoin | '';
  createTime?: [Dayjs, Dayjs];
}

/** The form's values as the list's filters: whole days in local time, "all" (empty) as no filter. */
export function toFundFilters(values: FundFilterValues): FundHistoryFilters {
  return {
    pageSize: PAGE_SIZE,
    type: values.type || undefined,
    action: values.action || undefined,
    coin: values.coin || undefined,
    createTime: values.createTime
      ? [values.createTime[0].startOf('day').toISOString(), values.createTime[1].endOf('day').toISOString()]
      : undefined,
  };
}
