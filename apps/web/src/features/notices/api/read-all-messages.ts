import { noticeEndpoints } from '@meridian/contracts/notices';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callEndpoint, unwrap } from '../../../lib/api-client.ts';
import { type MessagePages, withAllRead } from '../lib/message-cache.ts';
import { readUnreadCount } from '../lib/message-contract.ts';
import { messagesQueryKey } from './notice-api.ts';

/** `POST /api/notice/message/readAll` (silent; descriptor `noticeEndpoints.readAllMessages`): the count becomes 0. */
export async function readAllMessages(): Promise<number> {
  const response = await callEndpoint(noticeEndpoints.readAllMessages, {}, { silent: true });
  const unreadCount = readUnreadCount(unwrap(response));
  if (unreadCount === null) throw new Error('The read-all answer does not match its contract');
  return unreadCount;
}

/** Mark every message read; on success the cached list shows them read and the count 0. */
export function useReadAllMessages(userId: string) {
  const queryClient = useQueryClient();
  const queryKey = messagesQueryKey(userId);
  return useMutation({
    mutationFn: readAllMessages,
    onSuccess: () => {
      queryClient.setQueryData<MessagePages>(queryKey, (data) => data && withAllRead(data));
    },
    onError: () => queryClient.invalidateQueries({ queryKey }),
  });
}
