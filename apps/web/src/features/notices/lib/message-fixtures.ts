import type { MessageItem, MessageListContent } from '@meridian/contracts/notices';

/** Test data of the message centre's unit tests. */
export function message(
  id: string,
  status: MessageItem['status'] = 'unread',
  overrides: Partial<MessageItem> = {},
): MessageItem {
  return {
    id,
    category: 'DEPOSIT',
    status,
    title: `Title ${id}`,
    body: `Body ${id}`,
    link: null,
    createTime: '2026-11-20T10:00:00.000Z',
    ...overrides,
  };
}

export function page(
  pageID: number,
  list: MessageItem[],
  totals: { unreadCount: number; totalCount: number; pageSize?: number },
): MessageListContent {
  const pageSize = totals.pageSize ?? 10;
  return {
    list,
    unreadCount: totals.unreadCount,
    pageID,
    pageSize,
    totalPage: Math.ceil(totals.totalCount / pageSize),
    totalCount: totals.totalCount,
  };
}
