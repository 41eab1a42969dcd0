import { useUserId } from '../../../lib/session.ts';
import { useMessages } from '../api/get-messages.ts';
import { unreadCountOf } from '../lib/message-cache.ts';
import './messages-unread-badge.css';

/** Counts above this show as "99+" (Ant Design Badge's `overflowCount`, which this replaced). */
const OVERFLOW_COUNT = 99;

/**
 * The unread count beside the Messages entry of the account side menu; nothing at 0. Plain
 * React and CSS (the account layout paints before Ant Design loads), drawn like Ant Design's
 * small Badge.
 */
export function MessagesUnreadBadge() {
  const userId = useUserId();
  const { data } = useMessages(userId);
  const unreadCount = unreadCountOf(data);
  if (unreadCount === 0) return null;
  return (
    <span className="messages-unread-badge" data-testid="messages-unread-badge">
      {unreadCount > OVERFLOW_COUNT ? `${OVERFLOW_COUNT}+` : unreadCount}
    </span>
  );
}
