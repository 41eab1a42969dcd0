import type { MessageListContent } from '@meridian/contracts/notices';
import { useInfiniteQuery } from '@tanstack/react-query';
import { apiClient, unwrap } from '../../../lib/api-client.ts';
import { nextPageID } from '../lib/message-cache.ts';
import { readMessageList } from '../lib/message-contract.ts';
import { FIRST_PAGE_ID, MESSAGES_PAGE_SIZE, messagesQueryKey, NOTICE_BASE_PATH } from './notice-api.ts';

/** `GET /api/notice/message/list` (spec §7): one page of messages, newest first, with the unread count. */
export async function getMessages(pageID: number, signal?: AbortSignal): Promise<MessageListContent> {
  const response = await apiClient.get<MessageListContent>('message/list', {
    basePath: NOTICE_BASE_PATH,
    params: { pageID, pageSize: MESSAGES_PAGE_SIZE },
    signal,
  });
  const page = readMessageList(unwrap(response));
  if (!page) throw new Error('The message list does not match its contract');
  return page;
}

/**
 * The signed-in user's messages in list mode: the first page at once, each further page appended
 * on request until totalPage (spec §9). The header bell, the Messages menu badge and the messages
 * page share this one cache entry, which the message stream keeps current. Disabled for guests.
 */
export function useMessages(userId: string | null) {
  return useInfiniteQuery({
    queryKey: messagesQueryKey(userId ?? ''),
    queryFn: ({ pageParam, signal }) => getMessages(pageParam, signal),
    initialPageParam: FIRST_PAGE_ID,
    getNextPageParam: nextPageID,
    enabled: userId !== null,
  });
}
