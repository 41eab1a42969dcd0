import type { TablePaginationConfig } from 'antd';
import { useState } from 'react';

/** Rows per page of the back office's tables (the server allows at most 100). */
export const ADMIN_PAGE_SIZE_DEFAULT = 20;

/**
 * Server-side paging of a table: `pageID` and `pageSize` for the query, Ant Design's pagination
 * props for the table (fed with the server's `totalCount`), and `reset` to go back to the first
 * page when a filter changes.
 */
export function usePaging() {
  const [pageID, setPageID] = useState(1);
  const [pageSize, setPageSize] = useState(ADMIN_PAGE_SIZE_DEFAULT);
  const pagination = (totalCount: number | undefined): TablePaginationConfig => ({
    current: pageID,
    pageSize,
    total: totalCount ?? 0,
    showSizeChanger: true,
    pageSizeOptions: [10, 20, 50, 100],
    onChange: (nextPageID, nextPageSize) => {
      setPageID(nextPageSize === pageSize ? nextPageID : 1);
      setPageSize(nextPageSize);
    },
  });
  return { pageID, pageSize, pagination, reset: () => setPageID(1) };
}
