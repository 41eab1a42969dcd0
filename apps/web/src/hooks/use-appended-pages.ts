import { useEffect, useState } from 'react';

/** One page of a paged list answer (spec §7: list, pageID, totalPage …). */
interface PageLike<Row> {
  list: Row[];
  pageID: number;
}

/**
 * List mode (spec §9: "list mode appends until totalPage"): the rows of every page loaded so far,
 * page 1 replacing them (new filters) and later pages appended without duplicates (a row that
 * moved between pages while paging appears once). Inactive (desktop table) keeps the last rows.
 */
export function useAppendedPages<Row>(page: PageLike<Row> | undefined, keyOf: (row: Row) => string, isActive: boolean): Row[] {
  const [rows, setRows] = useState<Row[]>([]);
  useEffect(() => {
    if (!isActive || !page) return;
    setRows((previous) => {
      if (page.pageID === 1) return page.list;
      const incoming = new Set(page.list.map(keyOf));
      return [...previous.filter((row) => !incoming.has(keyOf(row))), ...page.list];
    });
    // keyOf is a pure accessor; the rows depend on the page only.
  }, [page, isActive]);
  return rows;
}
