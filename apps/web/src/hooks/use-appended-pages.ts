import { useEffect, useEffectEvent, useState } from 'react';

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
  // keyOf is a pure accessor the caller may pass inline: the rows follow the page, not its identity.
  const merge = useEffectEvent((arrived: PageLike<Row>) => {
    setRows((previous) => {
      if (arrived.pageID === 1) return arrived.list;
      const incoming = new Set(arrived.list.map(keyOf));
      return [...previous.filter((row) => !incoming.has(keyOf(row))), ...arrived.list];
    });
  });
  useEffect(() => {
    if (isActive && page) merge(page);
  }, [page, isActive]);
  return rows;
}
