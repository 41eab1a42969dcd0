import { noticeEndpoints } from '@meridian/contracts/notices';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callEndpoint, unwrap } from '../../../lib/api-client.ts';
import { type MessagePages, withMessageRead } from '../lib/message-cache.ts';
import { readUnreadCount } from '../lib/message-contract.ts';
import { messagesQueryKey } from './notice-api.ts';

/** `POST /api/notice/message/{id}/read` (silent; descriptor `noticeEndpoints.readMessage`): the unread count after the change. */
export async function readMessage(messageId: string): Promise<number> {
  const response = await callEndpoint(noticeEndpoints.readMessage, { params: { id: messageId } }, { silent: true });
  const unreadCount = readUnreadCount(unwrap(response));
  if (unreadCount === null) throw new Error('The read answer does not match its contract');
  return unreadCount;
}

/**
 * Mark one message read. The list shows it read at once (reading an unread message lowers the
 * count by one, a read one changes nothing); the server's count then replaces the guess,
 * and a failure reloads the list so that nothing shows read that is not.
 */
export function useReadMessage(userId: string) {
  const queryClient = useQueryClient();
  const queryKey = messagesQueryKey(userId);
  return useMutation({
    mutationFn: readMessage,
    onMutate: async (messageId: string) => {
      await queryClient.cancelQueries({ queryKey });
      queryClient.setQueryData<MessagePages>(queryKey, (data) => {
        if (!data) return data;
        const isUnread = data.pages.some((page) =>
          page.list.some((item) => item.id === messageId && item.status === 'unread'),
        );
        const unreadCount = Math.max(0, (data.pages[0]?.unreadCount ?? 0) - (isUnread ? 1 : 0));
        return withMessageRead(data, messageId, unreadCount);
      });
    },
    onSuccess: (unreadCount, messageId) => {
      queryClient.setQueryData<MessagePages>(queryKey, (data) => data && withMessageRead(data, messageId, unreadCount));
    },
    onError: () => queryClient.invalidateQueries({ queryKey }),
  });
}
