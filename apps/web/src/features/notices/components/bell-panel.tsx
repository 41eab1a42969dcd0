import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { pathTo } from '../../../config/paths.ts';
import { useMessages } from '../api/get-messages.ts';
import { mergeMessagePages, unreadCountOf } from '../lib/message-cache.ts';
import { cutText } from '../lib/message-text.ts';
import { formatPreviewTime } from '../lib/message-time.ts';

/** Messages shown in the header preview. */
export const PREVIEW_MESSAGES_MAX = 3;

/** State a link to the messages page carries to open one message there. */
export interface OpenMessageState {
  openMessageId: string;
}

/** Leave the hover/focus popover closed after following one of its links. */
function blurActive(): void {
  if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
}

/**
 * The bell's preview: the 3 most recent messages, the body cut at 50 characters, the
 * time as HH:mm:ss for today and YYYY-MM-DD before, and a link to all messages.
 */
export function BellPanel({ userId }: { userId: string }) {
  const { t } = useTranslation('notices');
  const { data, isPending } = useMessages(userId);
  const latest = mergeMessagePages(data?.pages ?? []).slice(0, PREVIEW_MESSAGES_MAX);
  const unreadCount = unreadCountOf(data);

  return (
    <div className="bell-panel" data-testid="notification-panel">
      <div className="bell-panel__head">
        <strong>{t('bell.title')}</strong>
        {unreadCount > 0 && <span className="bell-panel__unread">{t('bell.unread', { count: unreadCount })}</span>}
      </div>
      {latest.length === 0 ? (
        <p className="bell-panel__empty">{isPending ? '' : t('bell.empty')}</p>
      ) : (
        <ul className="bell-panel__list">
          {latest.map((message) => (
            <li key={message.id}>
              <Link
                to={pathTo('Messages')}
                state={{ openMessageId: message.id } satisfies OpenMessageState}
                className={`bell-panel__item${message.status === 'unread' ? ' is-unread' : ''}`}
                onClick={blurActive}
                data-testid="notification-preview-item"
              >
                <span className="bell-panel__title">{message.title}</span>
                <time className="bell-panel__time" dateTime={message.createTime}>
                  {formatPreviewTime(message.createTime)}
                </time>
                <span className="bell-panel__body">{cutText(message.body)}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
      <Link
        to={pathTo('Messages')}
        className="bell-panel__all"
        onClick={blurActive}
        data-testid="notification-view-all"
      >
        {t('bell.viewAll')}
      </Link>
    </div>
  );
}
