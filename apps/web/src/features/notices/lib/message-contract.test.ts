import { describe, expect, it } from 'vitest';
import { parseMessageEvent, readMessageList, readUnreadCount } from './message-contract.ts';
import { message, page } from './message-fixtures.ts';

/** What the server sends is checked against the notices contract before the cache takes it. */
describe('notices contract checks', () => {
  it('reads a stream event and refuses one that breaks the contract', () => {
    const event = { message: message('m1'), unreadCount: 4 };
    expect(parseMessageEvent(JSON.stringify(event))).toEqual(event);
    expect(parseMessageEvent('not json')).toBeNull();
    expect(
      parseMessageEvent(JSON.stringify({ message: { ...message('m1'), category: 'SPAM' }, unreadCount: 4 })),
    ).toBeNull();
    expect(parseMessageEvent(JSON.stringify({ message: message('m1'), unreadCount: -1 }))).toBeNull();
  });

  it('keeps the valid items of a page and refuses a body that is no page', () => {
    const valid = page(1, [message('m1')], { unreadCount: 1, totalCount: 1 });
    expect(readMessageList({ ...valid, list: [message('m1'), { id: 7 }] })).toEqual(valid);
    expect(readMessageList([message('m1')])).toBeNull();
  });

  it('reads the unread count of a read answer', () => {
    expect(readUnreadCount({ unreadCount: 0 })).toBe(0);
    expect(readUnreadCount({ unreadCount: '0' })).toBeNull();
  });
});
