import type { MessageItem } from '@meridian/contracts/notices';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatMessageDateTime } from '../lib/message-time.ts';
import { CategoryIcon } from './category-icon.tsx';

/** Only paths inside the product are followed; anything else in a message's link is not shown. */
function internalLink(link: string | null): string | null {
  return link && link.startsWith('/') && !link.startsWith('//') ? link : null;
}

export interface MessageRowProps {
  item: MessageItem;
  /** The row shows the message's whole text (and its link). */
  isOpen: boolean;
  onToggle: () => void;
}

/** One message of the message centre: title, category, time and a preview; opened, its whole text and link. */
export function MessageRow({ item, isOpen, onToggle }: MessageRowProps) {
  const { t } = useTranslation('notices');
  const isUnread = item.status === 'unread';
  const link = internalLink(item.link);
  const bodyId = `message-body-${item.id}`;

  return (
    <li
      className={`message-row${isUnread ? ' is-unread' : ''}${isOpen ? ' is-open' : ''}`}
      data-testid="message-row"
      data-status={item.status}
    >
      <button
        type="button"
        className="message-row__head"
        aria-expanded={isOpen}
        aria-controls={bodyId}
        onClick={onToggle}
      >
        <span
          className={`message-row__dot${isUnread ? ' is-unread' : ''}`}
          role="img"
          aria-label={isUnread ? t('page.unread') : t('page.read')}
        />
        <span className="message-row__title">{item.title}</span>
        <span className="message-row__meta">
          <Tag className="message-row__category" variant="filled" icon={<CategoryIcon category={item.category} />}>
            {t(`category.${item.category}`)}
          </Tag>
          <time dateTime={item.createTime}>{formatMessageDateTime(item.createTime)}</time>
        </span>
        {!isOpen && <span className="message-row__preview">{item.body}</span>}
      </button>
      {isOpen && (
        <div className="message-row__body" id={bodyId} data-testid="message-body">
          <p>{item.body}</p>
          {link && (
            <Link to={link} className="text-link">
              {t('page.openLink')}
            </Link>
          )}
        </div>
      )}
    </li>
  );
}
