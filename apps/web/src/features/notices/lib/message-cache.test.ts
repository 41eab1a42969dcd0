import { describe, expect, it } from 'vitest';
import {
  mergeMessagePages,
  type MessagePages,
  nextPageID,
  unreadCountOf,
  withAllRead,
  withIncomingMessage,
  withMessageRead,
} from './message-cache.ts';
import { message, page } from './message-fixtures.ts';

function pages(...list: MessagePages['pages']): MessagePages {
  return { pages: list, pageParams: list.map((item) => item.pageID) };
}

describe('list mode paging (appends until totalPage)', () => {
  it('asks for the next page until the last one', () => {
    expect(nextPageID(page(1, [], { unreadCount: 0, totalCount: 25 }))).toBe(2);
    expect(nextPageID(page(2, [], { unreadCount: 0, totalCount: 25 }))).toBe(3);
    expect(nextPageID(page(3, [], { unreadCount: 0, totalCount: 25 }))).toBeUndefined();
  });

  it('stops at once when there is nothing or a single page', () => {
    expect(nextPageID(page(1, [], { unreadCount: 0, totalCount: 0 }))).toBeUndefined();
    expect(nextPageID(page(1, [], { unreadCount: 0, totalCount: 10 }))).toBeUndefined();
  });

  it('appends pages in order and shows a message shifted onto the next page only once', () => {
    // m3 was last on page 1; a new message arrived before page 2 was fetched, so page 2 starts with m3 again.
    const first = page(1, [message('m1'), message('m2'), message('m3')], {
      unreadCount: 3,
      totalCount: 5,
      pageSize: 3,
    });
    const second = page(2, [message('m3'), message('m4'), message('m5')], {
      unreadCount: 3,
      totalCount: 6,
      pageSize: 3,
    });
    expect(mergeMessagePages([first, second]).map((item) => item.id)).toEqual(['m1', 'm2', 'm3', 'm4', 'm5']);
  });
});

describe('cache updates', () => {
  const data = pages(
    page(1, [message('m2'), message('m1', 'read')], { unreadCount: 1, totalCount: 3, pageSize: 2 }),
    page(2, [message('m0')], { unreadCount: 1, totalCount: 3, pageSize: 2 }),
  );

  it('puts a message from the stream on top, with the event unread count and grown totals', () => {
    const next = withIncomingMessage(data, { message: message('m3'), unreadCount: 2 });
    expect(mergeMessagePages(next.pages).map((item) => item.id)).toEqual(['m3', 'm2', 'm1', 'm0']);
    expect(unreadCountOf(next)).toBe(2);
    expect(next.pages.map((item) => [item.totalCount, item.totalPage, item.unreadCount])).toEqual([
      [4, 2, 2],
      [4, 2, 2],
    ]);
    // The input is left as it was.
    expect(unreadCountOf(data)).toBe(1);
    expect(data.pages[0]?.list).toHaveLength(2);
  });

  it('replaces a message it already holds instead of adding it twice', () => {
    const next = withIncomingMessage(data, { message: message('m1', 'read', { title: 'New title' }), unreadCount: 1 });
    expect(mergeMessagePages(next.pages).map((item) => item.title)).toEqual(['Title m2', 'New title', 'Title m0']);
    expect(next.pages[0]?.totalCount).toBe(3);
  });

  it('marks one message read with the server count', () => {
    const next = withMessageRead(data, 'm2', 0);
    expect(mergeMessagePages(next.pages).map((item) => item.status)).toEqual(['read', 'read', 'unread']);
    expect(unreadCountOf(next)).toBe(0);
  });

  it('marks every message read and the count 0', () => {
    const next = withAllRead(data);
    expect(mergeMessagePages(next.pages).every((item) => item.status === 'read')).toBe(true);
    expect(next.pages.map((item) => item.unreadCount)).toEqual([0, 0]);
  });

  it('counts 0 before the first page', () => {
    expect(unreadCountOf(undefined)).toBe(0);
  });
});
