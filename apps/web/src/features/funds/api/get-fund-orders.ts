import { fundEndpoints } from '@meridian/contracts/funds';
import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { callEndpoint, unwrap } from '../../../lib/api-client.ts';
import { pagedListOptions } from '../../../lib/paging.ts';
import { useUserId } from '../../../lib/session.ts';
import { type FundHistoryFilters, type FundOrderFilters, fundKeys } from './fund-keys.ts';

/** `GET fund/v2/order` (`fundEndpoints.order`): one page of the fund history, newest first. */
export async function getFundOrders(filters: FundOrderFilters, signal?: AbortSignal) {
  return unwrap(await callEndpoint(fundEndpoints.order, { query: filters }, { signal }));
}

/** One page of the fund history (the desktop table's pager); the last page stays shown while the next loads. */
export function useFundOrders(filters: FundOrderFilters, enabled = true) {
  const userId = useUserId();
  return useQuery({
    queryKey: fundKeys.orders(filters),
    enabled: enabled && userId !== null,
    queryFn: ({ signal }) => getFundOrders(filters, signal),
    placeholderData: keepPreviousData,
    retry: false,
  });
}

/** The fund history in list mode (mobile): page 1, then each further page appended on request until totalPage. */
export function useFundOrderPages(filters: FundHistoryFilters, enabled = true) {
  const userId = useUserId();
  return useInfiniteQuery({
    ...pagedListOptions({
      queryKey: fundKeys.orderPages(filters),
      fetchPage: (pageID, signal) => getFundOrders({ ...filters, pageID }, signal),
    }),
    enabled: enabled && userId !== null,
    placeholderData: keepPreviousData,
    retry: false,
  });
}
