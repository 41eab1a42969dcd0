import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { messagesQueryKey } from '../api/notice-api.ts';
import { type MessagePages, mergeMessagePages, unreadCountOf } from './message-cache.ts';
import { message, page } from './message-fixtures.ts';
import { MESSAGE_STREAM_URL, openMessageStream, RECONNECT_DELAY_MS_MIN, type StreamSource } from './message-stream.ts';

type Listener = (event: { data?: unknown }) => void;

/** A stand-in for EventSource that the test drives. */
class FakeSource implements StreamSource {
  readyState = 0;
  isClosed = false;
  private readonly listeners = new Map<string, Listener[]>();
  constructor(readonly url: string) {}
  addEventListener(type: 'open' | 'error' | 'message', listener: Listener): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  close(): void {
    this.isClosed = true;
    this.readyState = 2;
  }
  emit(type: 'open' | 'error' | 'message', data?: string): void {
    for (const listener of this.listeners.get(type) ?? []) listener({ data });
  }
}

function setUp() {
  const queryClient = new QueryClient();
  const userId = 'user-1';
  const sources: FakeSource[] = [];
  const timers: (() => void)[] = [];
  const delays: number[] = [];
  const onMessage = vi.fn();
  const stop = openMessageStream({
    queryClient,
    userId,
    locale: 'zh-HK',
    onMessage,
    openSource: (url) => {
      const source = new FakeSource(url);
      sources.push(source);
      return source;
    },
    setTimer: (run, delayMs) => {
      delays.push(delayMs);
      return timers.push(run);
    },
    clearTimer: () => timers.splice(0),
  });
  return { queryClient, userId, sources, timers, delays, onMessage, stop };
}

describe('message stream → cache', () => {
  it('puts each event into the cached list and unread count, then hands it to the toast', () => {
    const { queryClient, userId, sources, onMessage } = setUp();
    const key = messagesQueryKey(userId);
    queryClient.setQueryData<MessagePages>(key, {
      pages: [page(1, [message('m1', 'read')], { unreadCount: 0, totalCount: 1 })],
      pageParams: [1],
    });

    // The tab's language goes with the stream (an EventSource sends no User-Lang header).
    expect(sources.map((source) => source.url)).toEqual([`${MESSAGE_STREAM_URL}?lang=zh-HK`]);
    const event = { message: message('m2'), unreadCount: 1 };
    sources[0]?.emit('message', JSON.stringify(event));

    const data = queryClient.getQueryData<MessagePages>(key);
    expect(mergeMessagePages(data?.pages ?? []).map((item) => item.id)).toEqual(['m2', 'm1']);
    expect(unreadCountOf(data)).toBe(1);
    expect(onMessage).toHaveBeenCalledWith(event);
  });

  it('marks every cached balance stale when a money message arrives, on a card payment too, and leaves them for a security one', () => {
    const { queryClient, sources } = setUp();
    const moneyKeys = [
      ['wallet', 'records', { action: 'deposit' }],
      ['wallet', 'balance'],
      ['exchange', 'history', {}],
      ['funds', 'holdings'],
      ['cards', 'detail', 7],
      ['loans', 'list'],
      ['trust', 'list'],
    ];
    const isStale = () => moneyKeys.map((key) => queryClient.getQueryState(key)?.isInvalidated);
    const reset = () => moneyKeys.forEach((key) => queryClient.setQueryData(key, { list: [] }));
    reset();
    sources[0]?.emit(
      'message',
      JSON.stringify({ message: message('m3', 'unread', { category: 'SECURITY' }), unreadCount: 1 }),
    );
    expect(isStale()).toEqual(moneyKeys.map(() => false));
    for (const category of ['DEPOSIT', 'CARD', 'FUND', 'LOAN'] as const) {
      reset();
      sources[0]?.emit(
        'message',
        JSON.stringify({ message: message(`m-${category}`, 'unread', { category }), unreadCount: 2 }),
      );
      expect(isStale(), category).toEqual(moneyKeys.map(() => true));
    }
  });

  it('ignores an event that breaks the contract', () => {
    const { sources, onMessage } = setUp();
    sources[0]?.emit('message', JSON.stringify({ unreadCount: 1 }));
    expect(onMessage).not.toHaveBeenCalled();
  });

  it('still toasts when the list was never fetched, and leaves the cache empty for the first fetch', () => {
    const { queryClient, userId, sources, onMessage } = setUp();
    sources[0]?.emit('message', JSON.stringify({ message: message('m1'), unreadCount: 1 }));
    expect(onMessage).toHaveBeenCalledTimes(1);
    expect(queryClient.getQueryData(messagesQueryKey(userId))).toBeUndefined();
  });

  it('reopens a stream the server closed, and fetches the list again once it is back', () => {
    const { queryClient, userId, sources, timers, delays } = setUp();
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    const first = sources[0] as FakeSource;
    first.emit('open');
    first.readyState = 2;
    first.emit('error');
    expect(first.isClosed).toBe(true);
    expect(timers).toHaveLength(1);
    expect(delays).toEqual([RECONNECT_DELAY_MS_MIN]);

    timers.shift()?.();
    expect(sources).toHaveLength(2);
    sources[1]?.emit('open');
    expect(invalidate).toHaveBeenCalledWith({ queryKey: messagesQueryKey(userId) }, { cancelRefetch: false });
  });

  it('leaves a dropped stream to the browser to reconnect, and closes on stop', () => {
    const { sources, timers, stop } = setUp();
    const first = sources[0] as FakeSource;
    first.readyState = 0; // CONNECTING: the browser retries by itself
    first.emit('error');
    expect(timers).toHaveLength(0);
    stop();
    expect(first.isClosed).toBe(true);
  });
});
