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
 * Every cache that shows a balance or a money record: the wallet's (balances, deposit and
 * withdrawal records), the exchange's, the funds', the cards', the loans' and the trusts'. A money
 * event can change more than its own page shows (a card top-up moves the wallet too, a loan
 * liquidation the wallet and the loan), so a message of any money category marks them all stale;
 * only the ones a page of this tab is showing are fetched again. Every open tab has its own
 * stream, so every tab refreshes.
 */
export const MONEY_QUERIES: readonly (readonly string[])[] = [
  ['wallet'],
  ['exchange'],
  ['funds'],
  ['cards'],
  ['loans'],
  ['trust'],
];

/**
 * The message categories that tell of money moving (their messages refresh {@link MONEY_QUERIES});
 * docs/notices.md "Money events" lists the messages of each.
 */
export const MONEY_CATEGORIES: ReadonlySet<NoticeCategory> = new Set<NoticeCategory>([
  'DEPOSIT',
  'WITHDRAW',
  'EXCHANGE',
  'FUND',
  'LOAN',
  'CARD',
  'TRUST',
]);

/**
 * Puts a stream event into the cached message list (nothing to do before the list is first
 * fetched), and marks every cached balance and money record stale when the message tells of money.
 */
export function applyMessageEvent(queryClient: QueryClient, userId: string, event: NoticeEvent): void {
  queryClient.setQueryData<MessagePages>(messagesQueryKey(userId), (data) => data && withIncomingMessage(data, event));
  if (!MONEY_CATEGORIES.has(event.message.category)) return;
  for (const queryKey of MONEY_QUERIES) void queryClient.invalidateQueries({ queryKey });
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
