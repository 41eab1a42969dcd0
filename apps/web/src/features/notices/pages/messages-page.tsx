import type { MessageItem } from '@meridian/contracts/notices';
import { Button, Empty, Result, Skeleton, Tag } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { PageFrame } from '../../../components/page-frame.tsx';
import { pathTo } from '../../../config/paths.ts';
import { useUserId } from '../../../lib/session.ts';
import { openActionModal } from '../../../stores/modal-store.ts';
import { useMessages } from '../api/get-messages.ts';
import { useReadAllMessages } from '../api/read-all-messages.ts';
import { useReadMessage } from '../api/read-message.ts';
import type { OpenMessageState } from '../components/bell-panel.tsx';
import { mergeMessagePages, unreadCountOf } from '../lib/message-cache.ts';
import { formatMessageDateTime } from '../lib/message-time.ts';
import './messages-page.css';

/** The message to open on arrival, when a bell preview or a toast linked here. */
function openMessageIdOf(state: unknown): string | null {
  if (typeof state !== 'object' || state === null) return null;
  const id = (state as Partial<OpenMessageState>).openMessageId;
  return typeof id === 'string' ? id : null;
}

/** Only paths inside the product are followed; anything else in a message's link is not shown. */
function internalLink(link: string | null): string | null {
  return link && link.startsWith('/') && !link.startsWith('//') ? link : null;
}

/** /messages (spec §2): the message centre. */
export function MessagesPage() {
  const { t } = useTranslation('notices');
  const userId = useUserId();
  return (
    <PageFrame>
      <div className="content-card messages-card">
        {userId ? (
          <MessageList userId={userId} />
        ) : (
          <Result
            status="info"
            title={t('page.guest')}
            extra={
              <Button type="primary" onClick={() => openActionModal('login', { returnTo: pathTo('Messages') })}>
                {t('common:header.login')}
              </Button>
            }
          />
        )}
      </div>
    </PageFrame>
  );
}

/**
 * The list in list mode: page after page appended until totalPage (spec §9). Opening a message shows
 * its whole text and marks it read; "mark all as read" reads them all (spec §4).
 */
function MessageList({ userId }: { userId: string }) {
  const { t } = useTranslation('notices');
  const location = useLocation();
  const messages = useMessages(userId);
  const readMessage = useReadMessage(userId);
  const readAll = useReadAllMessages(userId);
  const [openId, setOpenId] = useState<string | null>(() => openMessageIdOf(location.state));

  // A preview or toast followed while already on this page opens its message too.
  useEffect(() => {
    const requested = openMessageIdOf(location.state);
    if (requested) setOpenId(requested);
  }, [location.key, location.state]);

  const items = mergeMessagePages(messages.data?.pages ?? []);
  const unreadCount = unreadCountOf(messages.data);
  const opened = items.find((item) => item.id === openId);
  const { mutate: markRead } = readMessage;

  // An opened message is read (spec §4); reading a read one would change nothing, so it is not sent.
  useEffect(() => {
    if (opened?.status === 'unread') markRead(opened.id);
  }, [opened?.id, opened?.status, markRead]);

  if (messages.isPending) {
    return <Skeleton active paragraph={{ rows: 6 }} className="messages-skeleton" />;
  }
  if (messages.isError && items.length === 0) {
    return (
      <Result
        status="warning"
        title={t('page.loadFailed')}
        extra={<Button onClick={() => void messages.refetch()}>{t('page.retry')}</Button>}
        data-testid="messages-error"
      />
    );
  }

  return (
    <div className="messages" data-testid="messages">
      <div className="messages__bar">
        <span className="messages__summary" data-testid="messages-unread-summary" data-unread-count={unreadCount}>
          {t('page.unreadSummary', { count: unreadCount })}
        </span>
        <Button onClick={() => readAll.mutate()} disabled={unreadCount === 0} loading={readAll.isPending} data-testid="messages-read-all">
          {t('page.readAll')}
        </Button>
      </div>
      {items.length === 0 ? (
        <Empty className="messages__empty" description={<EmptyText />} data-testid="messages-empty" />
      ) : (
        <ul className="messages__list">
          {items.map((item) => (
            <MessageRow key={item.id} item={item} isOpen={item.id === openId} onToggle={() => setOpenId(item.id === openId ? null : item.id)} />
          ))}
        </ul>
      )}
      {messages.hasNextPage ? (
        <div className="messages__more">
          <Button onClick={() => void messages.fetchNextPage()} loading={messages.isFetchingNextPage} data-testid="messages-load-more">
            {t('page.loadMore')}
          </Button>
        </div>
      ) : (
        items.length > 0 && (messages.data?.pages.length ?? 0) > 1 && <p className="messages__end">{t('page.noMore')}</p>
      )}
    </div>
  );
}

function EmptyText() {
  const { t } = useTranslation('notices');
  return (
    <span className="messages__empty-text">
      <strong>{t('page.empty')}</strong>
      <span>{t('page.emptyHint')}</span>
    </span>
  );
}

function MessageRow({ item, isOpen, onToggle }: { item: MessageItem; isOpen: boolean; onToggle: () => void }) {
  const { t } = useTranslation('notices');
  const isUnread = item.status === 'unread';
  const link = internalLink(item.link);
  const bodyId = `message-body-${item.id}`;

  return (
    <li className={`message-row${isUnread ? ' is-unread' : ''}${isOpen ? ' is-open' : ''}`} data-testid="message-row" data-status={item.status}>
      <button type="button" className="message-row__head" aria-expanded={isOpen} aria-controls={bodyId} onClick={onToggle}>
        <span className={`message-row__dot${isUnread ? ' is-unread' : ''}`} role="img" aria-label={isUnread ? t('page.unread') : t('page.read')} />
        <span className="message-row__title">{item.title}</span>
        <span className="message-row__meta">
          <Tag className="message-row__category" variant="filled">
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
