import type { Page } from '@meridian/contracts/pagination';
import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { pagedListOptions } from '../../../lib/paging.ts';
import { useUserId } from '../../../lib/session.ts';
import { type LoanHistoryFilters, loanKeys, type LoanPageFilters, type LoanRecordKind } from './loan-keys.ts';

/** A loan history's fetcher: one page of rows for the filters. */
export type RecordFetcher<Row> = (filters: LoanPageFilters, signal?: AbortSignal) => Promise<Page<Row>>;

/** One page of a loan history (the desktop table's pager); the last page stays shown while the next loads. */
export function useRecordPage<Row>(
  kind: LoanRecordKind,
  fetcher: RecordFetcher<Row>,
  filters: LoanPageFilters,
  enabled = true,
) {
  const userId = useUserId();
  return useQuery({
    queryKey: loanKeys.records(kind, filters),
    enabled: enabled && userId !== null,
    queryFn: ({ signal }) => fetcher(filters, signal),
    placeholderData: keepPreviousData,
    retry: false,
  });
}

/** A loan history in list mode (mobile): page 1, then each further page appended on request until totalPage. */
export function useRecordPages<Row>(
  kind: LoanRecordKind,
  fetcher: RecordFetcher<Row>,
  filters: LoanHistoryFilters,
  enabled = true,
) {
  const userId = useUserId();
  return useInfiniteQuery({
    ...pagedListOptions({
      queryKey: loanKeys.recordPages(kind, filters),
      fetchPage: (pageID, signal) => fetcher({ ...filters, pageID }, signal),
    }),
    enabled: enabled && userId !== null,
    placeholderData: keepPreviousData,
    retry: false,
  });
}
