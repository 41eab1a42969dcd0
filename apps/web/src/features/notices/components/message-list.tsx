import { Button, Empty, Result, Skeleton } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { useMessages } from '../api/get-messages.ts';
import { useReadAllMessages } from '../api/read-all-messages.ts';
import { useReadMessage } from '../api/read-message.ts';
import { mergeMessagePages, unreadCountOf } from '../lib/message-cache.ts';
import type { OpenMessageState } from './bell-panel.tsx';
import { MessageRow } from './message-row.tsx';
import { MessagesEmptyText } from './messages-empty-text.tsx';

/** The message to open on arrival, when a bell preview or a toast linked here. */
function openMessageIdOf(state: unknown): string | null {
  if (typeof state !== 'object' || state === null) return null;
  const id = (state as Partial<OpenMessageState>).openMessageId;
  return typeof id === 'string' ? id : null;
}

/**
 * The list in list mode: page after page appended until totalPage. Opening a message shows
 * its whole text and marks it read; "mark all as read" reads them all.
 */
export function MessageList({ userId }: { userId: string }) {
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

  // An opened message is read; reading a read one would change nothing, so it is not sent.
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
        <Button
          onClick={() => readAll.mutate()}
          disabled={unreadCount === 0}
          loading={readAll.isPending}
          data-testid="messages-read-all"
        >
          {t('page.readAll')}
        </Button>
      </div>
      {items.length === 0 ? (
        <Empty className="messages__empty" description={<MessagesEmptyText />} data-testid="messages-empty" />
      ) : (
        <ul className="messages__list">
          {items.map((item) => (
            <MessageRow
              key={item.id}
              item={item}
              isOpen={item.id === openId}
              onToggle={() => setOpenId(item.id === openId ? null : item.id)}
            />
          ))}
        </ul>
      )}
      {messages.hasNextPage ? (
        <div className="messages__more">
          <Button
            onClick={() => void messages.fetchNextPage()}
            loading={messages.isFetchingNextPage}
            data-testid="messages-load-more"
          >
            {t('page.loadMore')}
          </Button>
        </div>
      ) : (
        items.length > 0 &&
        (messages.data?.pages.length ?? 0) > 1 && <p className="messages__end">{t('page.noMore')}</p>
      )}
    </div>
  );
}
