import type { Page } from '@meridian/contracts/pagination';

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
