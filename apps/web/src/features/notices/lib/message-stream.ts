import { NOTICE_BASE_PATH, type NoticeCategory, type MessageEvent as NoticeEvent } from '@meridian/contracts/notices';
import type { QueryClient } from '@tanstack/react-query';
import { messagesQueryKey } from '../api/notice-api.ts';
import { type MessagePages, withIncomingMessage } from './message-cache.ts';
import { parseMessageEvent } from './message-contract.ts';

/** Server-sent events of the signed-in user's new messages (`event: message`). */
export const MESSAGE_STREAM_URL = `${NOTICE_BASE_PATH}/stream`;

/**
 * The stream's address for a tab shown in `locale`: an EventSource sends no `User-Lang` header, so
 * the language goes in the query, and the server writes this tab's messages in it (another tab of
 * the same account may be in the other language).
 */
export function messageStreamUrl(locale: string): string {
  return `${MESSAGE_STREAM_URL}?lang=${encodeURIComponent(locale)}`;
}
/**
 * The browser reconnects a dropped stream by itself (the server asks for 5 s). A stream the server
 * refused (an error status, a proxy's 502) is closed for good, so it is reopened here, waiting twice
 * as long each time up to a minute.
 */
export const RECONNECT_DELAY_MS_MIN = 5_000;
export const RECONNECT_DELAY_MS_MAX = 60_000;

/** The part of EventSource used here, so tests can drive a stand-in. */
export interface StreamSource {
  readonly readyState: number;
  addEventListener(type: 'open' | 'error' | 'message', listener: (event: { data?: unknown }) => void): void;
  close(): void;
}

/** EventSource.CLOSED, without reading the global (absent in tests). */
const READY_STATE_CLOSED = 2;

/**
 * Cached data a message says has changed, by category: query-key prefixes of the wallet's caches
 * (`['wallet', …]`: balances, deposit and withdrawal records) and the exchange's (`['exchange', …]`),
 * so an open history page or balance shows a credited deposit or a settled withdrawal at once.
 */
export const STALE_QUERIES_BY_CATEGORY: Partial<Record<NoticeCategory, readonly (readonly string[])[]>> = {
  DEPOSIT: [['wallet']],
  WITHDRAW: [['wallet']],
  EXCHANGE: [['wallet'], ['exchange']],
};

/**
 * Puts a stream event into the cached message list (nothing to do before the list is first
 * fetched), and marks the money data the message's category changes as stale.
 */
export function applyMessageEvent(queryClient: QueryClient, userId: string, event: NoticeEvent): void {
  queryClient.setQueryData<MessagePages>(messagesQueryKey(userId), (data) => data && withIncomingMessage(data, event));
  for (const queryKey of STALE_QUERIES_BY_CATEGORY[event.message.category] ?? [])
    void queryClient.invalidateQueries({ queryKey });
}

export interface MessageStreamOptions {
  queryClient: QueryClient;
  userId: string;
  /** The tab's language (`en-US`, `zh-HK`): the stream's messages are written in it. */
  locale: string;
  /** Called with each valid event after the cache has it (the foreground toast). */
  onMessage: (event: NoticeEvent) => void;
  openSource?: (url: string) => StreamSource;
  setTimer?: (run: () => void, delayMs: number) => unknown;
  clearTimer?: (timer: unknown) => void;
}

/**
 * Opens the message stream and keeps it open until the returned function is called. Each event
 * updates the cached list and unread count; after a reconnection the list is fetched again, since
 * messages may have arrived while the stream was down.
 */
export function openMessageStream(options: MessageStreamOptions): () => void {
  const { queryClient, userId, locale, onMessage } = options;
  const openSource = options.openSource ?? ((url: string) => new EventSource(url));
  const setTimer = options.setTimer ?? ((run: () => void, delayMs: number) => setTimeout(run, delayMs));
  const clearTimer = options.clearTimer ?? ((timer: unknown) => clearTimeout(timer as ReturnType<typeof setTimeout>));

  let source: StreamSource | null = null;
  let timer: unknown = null;
  let delayMs = RECONNECT_DELAY_MS_MIN;
  let hasDropped = false;
  let isStopped = false;

  const connect = () => {
    timer = null;
    if (isStopped) return;
    const current = openSource(messageStreamUrl(locale));
    source = current;
    current.addEventListener('open', () => {
      delayMs = RECONNECT_DELAY_MS_MIN;
      if (!hasDropped) return;
      hasDropped = false;
      // Without cancelling a fetch under way: a "load more" in flight must not be dropped.
      void queryClient.invalidateQueries({ queryKey: messagesQueryKey(userId) }, { cancelRefetch: false });
    });
    current.addEventListener('message', ({ data }) => {
      const event = typeof data === 'string' ? parseMessageEvent(data) : null;
      if (!event) return;
      applyMessageEvent(queryClient, userId, event);
      onMessage(event);
    });
    current.addEventListener('error', () => {
      hasDropped = true;
      if (current.readyState !== READY_STATE_CLOSED || isStopped) return;
      current.close();
      timer = setTimer(connect, delayMs);
      delayMs = Math.min(delayMs * 2, RECONNECT_DELAY_MS_MAX);
    });
  };

  connect();
  return () => {
    isStopped = true;
    if (timer !== null) clearTimer(timer);
    source?.close();
  };
}
