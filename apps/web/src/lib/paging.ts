import type { Page } from '@meridian/contracts/pagination';
import { infiniteQueryOptions, type QueryKey } from '@tanstack/react-query';

/** The first page of every paged list (`pageID` counts from 1). */
export const FIRST_PAGE_ID = 1;

/**
 * `getNextPageParam` of a paged list's `useInfiniteQuery` ("list mode appends until
 * totalPage"): the page after `lastPage`, or undefined when it was the last one.
 */
export function nextPageIdOf(lastPage: Pick<Page<unknown>, 'pageID' | 'totalPage'>): number | undefined {
  return lastPage.pageID < lastPage.totalPage ? lastPage.pageID + 1 : undefined;
}

/**
 * The rows of every page fetched so far, in order, each once. Pages are fetched by offset, so a row
 * arriving between two fetches shifts the next page by one and would repeat: the first copy wins.
 * `keyOf` names a row (its id).
 */
export function rowsOfPages<Row>(
  pages: readonly Pick<Page<Row>, 'list'>[] | undefined,
  keyOf: (row: Row) => string,
): Row[] {
  const seen = new Set<string>();
  const rows: Row[] = [];
  for (const page of pages ?? []) {
    for (const row of page.list) {
      const key = keyOf(row);
      if (seen.has(key)) continue;
      seen.add(key);
      rows.push(row);
    }
  }
  return rows;
}

/** What the helper needs of a page of the API's pagination envelope (`Page` of contracts/pagination). */
type PageEnvelope = Pick<Page<unknown>, 'pageID' | 'totalPage'>;

/**
 * The `useInfiniteQuery` options of every paged list in list mode (TanStack Query v5): page 1 first,
 * `fetchPage(pageID, signal)` for each further page, and the next page read from the envelope
 * (`pageID` < `totalPage`), so no list writes its own paging. Spread it and add the list's own
 * options: `useInfiniteQuery({ ...pagedListOptions({ queryKey, fetchPage }), enabled })`; show the
 * rows with `rowsOfPages(query.data?.pages, keyOf)`.
 */
export function pagedListOptions<P extends PageEnvelope, Key extends QueryKey>(options: {
  queryKey: Key;
  fetchPage: (pageID: number, signal: AbortSignal) => Promise<P>;
}) {
  return infiniteQueryOptions({
    queryKey: options.queryKey,
    queryFn: ({ pageParam, signal }: { pageParam: number; signal: AbortSignal }) =>
      options.fetchPage(pageParam, signal),
    initialPageParam: FIRST_PAGE_ID,
    getNextPageParam: nextPageIdOf,
  });
}
