import type { MessageEvent, MessageItem, MessageListContent } from '@meridian/contracts/notices';
import type { InfiniteData } from '@tanstack/react-query';
import { nextPageIdOf, rowsOfPages } from '../../../lib/paging.ts';

/**
 * The message list as TanStack Query keeps it: the pages fetched so far, in list mode (each
 * page appended until totalPage). These functions are the only writers of that cache besides
 * the fetch itself; each returns new data and never mutates its input.
 *
 * Every page carries the unread count; the writers keep it the same on every page, so the count of
 * the first page is the newest the tab knows.
 */
export type MessagePages = InfiniteData<MessageListContent>;

/** The page after `lastPage`, or undefined when it was the last one (list mode stops at totalPage). */
export function nextPageID(lastPage: MessageListContent): number | undefined {
  return nextPageIdOf(lastPage);
}

/**
 * The messages of every fetched page, newest first, each once. Pages are fetched by offset, so a
 * message arriving between two fetches shifts the next page by one and would repeat: the first
 * copy (the newer fetch's position) wins.
 */
export function mergeMessagePages(pages: readonly MessageListContent[]): MessageItem[] {
  return rowsOfPages(pages, (item) => item.id);
}

/** The unread count the cache holds (0 before the first page arrives). */
export function unreadCountOf(data: MessagePages | undefined): number {
  return data?.pages[0]?.unreadCount ?? 0;
}

function totalPagesFor(totalCount: number, pageSize: number): number {
  return pageSize > 0 ? Math.ceil(totalCount / pageSize) : 0;
}

/**
 * A message that arrived on the stream: it goes to the top of the first page (or replaces its
 * older copy), the unread count becomes the event's, and the totals grow by one for a new message.
 */
export function withIncomingMessage(data: MessagePages, event: MessageEvent): MessagePages {
  const isKnown = data.pages.some((page) => page.list.some((item) => item.id === event.message.id));
  const pages = data.pages.map((page, index) => {
    const totalCount = isKnown ? page.totalCount : page.totalCount + 1;
    let list = page.list.map((item) => (item.id === event.message.id ? event.message : item));
    if (!isKnown && index === 0) list = [event.message, ...list];
    return {
      ...page,
      list,
      unreadCount: event.unreadCount,
      totalCount,
      totalPage: totalPagesFor(totalCount, page.pageSize),
    };
  });
  return { ...data, pages };
}

/** One message read: its status becomes read and the unread count the server's answer. */
export function withMessageRead(data: MessagePages, messageId: string, unreadCount: number): MessagePages {
  return {
    ...data,
    pages: data.pages.map((page) => ({
      ...page,
      unreadCount,
      list: page.list.map((item) =>
        item.id === messageId && item.status !== 'read' ? { ...item, status: 'read' as const } : item,
      ),
    })),
  };
}

/** Every message read: the unread count becomes 0. */
export function withAllRead(data: MessagePages): MessagePages {
  return {
    ...data,
    pages: data.pages.map((page) => ({
      ...page,
      unreadCount: 0,
      list: page.list.map((item) => (item.status === 'read' ? item : { ...item, status: 'read' as const })),
    })),
  };
}
