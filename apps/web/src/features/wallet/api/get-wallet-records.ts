import { walletEndpoints } from '@meridian/contracts/wallet';
import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { callEndpoint, unwrap } from '../../../lib/api-client.ts';
import { pagedListOptions } from '../../../lib/paging.ts';
import { useUserId } from '../../../lib/session.ts';
import { type RecordFilters, type RecordHistoryFilters, walletKeys } from './wallet-keys.ts';

/** `GET wallet/record` (`walletEndpoints.listRecords`): one page of the user's deposits or withdrawals, newest first. */
export async function getWalletRecords(filters: RecordFilters, signal?: AbortSignal) {
  return unwrap(await callEndpoint(walletEndpoints.listRecords, { query: filters }, { signal }));
}

/** One page of the deposit or withdrawal history (the desktop table's pager); the last page stays shown while the next loads. */
export function useWalletRecords(filters: RecordFilters) {
  const userId = useUserId();
  return useQuery({
    queryKey: walletKeys.records(filters),
    enabled: userId !== null,
    queryFn: ({ signal }) => getWalletRecords(filters, signal),
    placeholderData: keepPreviousData,
  });
}

/** The history in list mode (mobile): page 1, then each further page appended on request until totalPage. */
export function useWalletRecordPages(filters: RecordHistoryFilters) {
  const userId = useUserId();
  return useInfiniteQuery({
    ...pagedListOptions({
      queryKey: walletKeys.recordPages(filters),
      fetchPage: (pageID, signal) => getWalletRecords({ ...filters, pageID }, signal),
    }),
    enabled: userId !== null,
    // New filters keep the rows shown until their first page arrives.
    placeholderData: keepPreviousData,
  });
}
