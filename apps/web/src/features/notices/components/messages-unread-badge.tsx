import { Badge } from 'antd';
import { useUserId } from '../../../lib/session.ts';
import { useMessages } from '../api/get-messages.ts';
import { unreadCountOf } from '../lib/message-cache.ts';
import './messages-unread-badge.css';

/** The unread count beside the Messages entry of the account side menu (spec §2); nothing at 0. */
export function MessagesUnreadBadge() {
  const userId = useUserId();
  const { data } = useMessages(userId);
  const unreadCount = unreadCountOf(data);
  if (unreadCount === 0) return null;
  return (
    <Badge
      count={unreadCount}
      overflowCount={99}
      size="small"
      className="messages-unread-badge"
      data-testid="messages-unread-badge"
    />
  );
}
