import { endpointPath } from '@meridian/contracts/endpoint';
import type { MessageListContent, noticeEndpoints } from '@meridian/contracts/notices';
import { useInfiniteQuery } from '@tanstack/react-query';
import { request, unwrap } from '../../../lib/api-client.ts';
import { readMessageList } from '../lib/message-contract.ts';
import { pagedListOptions } from '../../../lib/paging.ts';
import { MESSAGES_PAGE_SIZE, messagesQueryKey } from './notice-api.ts';

/**
 * The route of `noticeEndpoints.listMessages`, checked against the descriptor at compile time. The
 * header bell puts this call on the home page's first load, and importing the descriptor itself
 * would bring full zod with it (the home route stays under 150 KB); the answer is
 * checked by `readMessageList` instead of the descriptor's schema.
 */
const LIST_MESSAGES_ROUTE = { method: 'GET', basePath: '/api/notice', path: '/message/list' } as const satisfies Pick<
  typeof noticeEndpoints.listMessages,
  'method' | 'basePath' | 'path'
>;

/** `GET /api/notice/message/list`: one page of messages, newest first, with the unread count. */
export async function getMessages(pageID: number, signal?: AbortSignal): Promise<MessageListContent> {
  const response = await request<MessageListContent>(LIST_MESSAGES_ROUTE.method, endpointPath(LIST_MESSAGES_ROUTE), {
    basePath: LIST_MESSAGES_ROUTE.basePath,
    params: { pageID, pageSize: MESSAGES_PAGE_SIZE },
    signal,
  });
  const page = readMessageList(unwrap(response));
  if (!page) throw new Error('The message list does not match its contract');
  return page;
}

/**
 * The signed-in user's messages in list mode: the first page at once, each further page appended
 * on request until totalPage. The header bell, the Messages menu badge and the messages
 * page share this one cache entry, which the message stream keeps current. Disabled for guests.
 */
export function useMessages(userId: string | null) {
  return useInfiniteQuery({
    ...pagedListOptions({ queryKey: messagesQueryKey(userId ?? ''), fetchPage: getMessages }),
    enabled: userId !== null,
  });
}
